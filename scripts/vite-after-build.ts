/**
 * The shape of the build's own steps (the prerendered pages, the screens' preload table): a Vite plugin that
 * runs once the client build is written, with the project's root and the build's folder, and not for an SSR
 * build (which has no client files to read).
 */
import path from 'node:path';
import type { Plugin } from 'vite';

export function afterClientBuild(name: string, done: (root: string, outDir: string) => void | Promise<void>): Plugin {
  let root = process.cwd();
  let outDir = 'dist/web';
  let ssrBuild = false;
  return {
    name,
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      ssrBuild = !!config.build.ssr;
    },
    async closeBundle() {
      if (!ssrBuild) await done(root, outDir);
    },
  };
}
