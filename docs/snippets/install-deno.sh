for name in core adapter-fetch store-memory; do
  mkdir -p ../plant-store-packs/$name
  tar -xzf ../plant-store-packs/plant-store-$name-0.1.0.tgz -C ../plant-store-packs/$name --strip-components=1
done
deno install
