curl -s http://127.0.0.1:8080/plants \
  -H 'Authorization: Bearer s3cret-token' -H 'Content-Type: application/json' \
  -d '{"id": 9223372036854775807, "name": "Monstera", "tag": "tropical"}'
# {"name":"Monstera","tag":"tropical"}
