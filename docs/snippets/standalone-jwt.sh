# Auth0: access tokens for the API https://plants.example.com that grant plants:write
export PLANT_STORE_JWT_ISSUER=https://plants-example.eu.auth0.com/
export PLANT_STORE_JWT_AUDIENCE=https://plants.example.com
export PLANT_STORE_JWKS_URL=https://plants-example.eu.auth0.com/.well-known/jwks.json
export PLANT_STORE_JWT_SCOPE=plants:write
npx plant-store
# plant-store listening on http://127.0.0.1:8080 (store: sqlite at …/.plant-store/plants.db)
# plant-store: bearer tokens are JWTs from https://plants-example.eu.auth0.com/ for https://plants.example.com, keys from https://plants-example.eu.auth0.com/.well-known/jwks.json, scope plants:write required
