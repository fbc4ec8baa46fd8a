import { describe, expect, it } from 'vitest';
import { shellFiles } from './shell-files';

describe('the app shell the service worker keeps', () => {
  it("keeps the page, its code, styles, icons, woff2 fonts and tool search's word vectors; never maps, host files, the sandboxes or the deployer's config", () => {
    const built = [
      'index.html',
      'assets/index-abc.js',
      'assets/index-abc.js.map',
      'assets/start-def.js',
      'assets/index-abc.css',
      'assets/KaTeX_Main-Regular-x.woff2',
      'assets/KaTeX_Main-Regular-x.woff',
      'assets/KaTeX_Main-Regular-x.ttf',
      'favicon.svg',
      'manifest.webmanifest',
      'icons/icon-192.png',
      'theme-boot.js',
      'search/word-vectors.bin',
      '_headers',
      '.vite/manifest.json',
      'sandbox/index.html',
      'sandbox\\runner.js',
      'mcp-app/proxy.html',
      'oauth/client-metadata.json',
      'app-config.json',
      'sw.js',
    ];
    expect(shellFiles(built)).toEqual([
      'assets/KaTeX_Main-Regular-x.woff2',
      'assets/index-abc.css',
      'assets/index-abc.js',
      'assets/start-def.js',
      'favicon.svg',
      'icons/icon-192.png',
      'index.html',
      'manifest.webmanifest',
      'search/word-vectors.bin',
      'theme-boot.js',
    ]);
  });
});
