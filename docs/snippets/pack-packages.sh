npx --yes pnpm@10.34.9 install
npx --yes pnpm@10.34.9 build
npx --yes pnpm@10.34.9 -r --filter "./packages/*" pack --pack-destination ../plant-store-packs
