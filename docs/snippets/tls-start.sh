PLANT_STORE_TLS_CERT=/etc/letsencrypt/live/plants.example.com/fullchain.pem \
PLANT_STORE_TLS_KEY=/etc/letsencrypt/live/plants.example.com/privkey.pem \
HOST=0.0.0.0 PORT=443 plant-store
