// The stylesheet is bundled with the console by esbuild (admin/console/assets.ts): a side-effect import with no types.
declare module '*.css';
