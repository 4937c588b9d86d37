import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type WxtViteConfig } from 'wxt';

/**
 * Build-time configuration. PARLEY_API_URL is where the API answers; PARLEY_WEB_URL is the web app (the same server by
 * default). Both are baked into the bundle: an extension may not load remote code or configuration.
 */
const apiUrl = new URL(process.env.PARLEY_API_URL || 'http://localhost:3000');
const webUrl = new URL(process.env.PARLEY_WEB_URL || process.env.PARLEY_API_URL || 'http://localhost:3000');

/** A match pattern for exactly one origin (scheme, host and port). */
const originPattern = (url: URL) => `${url.protocol}//${url.host}/*`;

/**
 * Public half of an RSA key generated once with node:crypto (the private half was never written anywhere). It pins the
 * unpacked extension's id to lmnfffjpjllagclooeeioadedodboamk, so the web app, CORS and tests can name it. A store
 * upload gets the store's own key and id instead (see README).
 */
const MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArKM75exK2uFjbq7Ga7EvlaxVIO+taiNJTfzZuRgbVNioCD0zju1xvh3/CgBBbhYn2m/XM+tI7NxZKXXsRUEAzpIEhsKjNwWJsS52eTrSdhSi2FBWoU2iepXNFrIDIIk1L5hvrgGz3qx+vrTa9nwOpDZmOf3caC/hF9ZCOmd4uRlujgz4E/Q88ls/2dZnW7mJa81KXzX/p9LLI6AKTwmBGs4qksRU61Qd94lpQV7ZII+qRMsWJeYHTZZNal1Qsgl7iZolKAKXiGW3hlauA58LbfsR+qN4qYMAKjnV+5/RaWsuVH6KDfsLsCVeLOBlaOsSIT4My0yBItsmA9DZBax55QIDAQAB';

type VitePlugin = NonNullable<WxtViteConfig['plugins']>[number];

/**
 * WXT's content script entry builds its `ctx` from `wxt/utils/content-script-context`, whose constructor posts a
 * message naming the extension to every page; this resolves that import to our quiet subclass instead (see
 * src/platform/content-script/script-context.ts, which itself imports WXT's class).
 */
function quietContentScriptContext(): VitePlugin {
  const ours = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    'src/platform/content-script/script-context.ts',
  );
  return {
    name: 'parley:quiet-content-script-context',
    enforce: 'pre',
    resolveId(id: string, importer: string | undefined) {
      if (id !== 'wxt/utils/content-script-context' || !importer || path.resolve(importer) === ours) return null;
      return ours;
    },
  } as VitePlugin;
}

export default defineConfig({
  srcDir: 'src',
  // Tests build into their own folder so they never overwrite the developer's build.
  outDir: process.env.PARLEY_EXTENSION_OUT_DIR || '.output',
  modules: ['@wxt-dev/module-react'],
  imports: false,
  manifestVersion: 3,
  targetBrowsers: ['chrome'],
  manifest: ({ mode }) => ({
    // The browser's own list and the store show the description in the browser's language (public/_locales).
    name: '__MSG_extensionName__',
    description: '__MSG_extensionDescription__',
    default_locale: 'en',
    // The store build (`wxt zip --mode store`) leaves the key out: the Chrome Web Store assigns its own.
    ...(mode === 'store' ? {} : { key: MANIFEST_KEY }),
    // Only what is used. activeTab: a click on Parley's toolbar button or context menu lets the panel see that tab's
    // address and capture it (screenshot, region, PDF, video), nothing more and only until it navigates away.
    // scripting: the region picker and the YouTube transcript reader are injected on the click that asks for them
    // (no always-on content script). contextMenus: "Chat about this image with Parley" (only while chatWithImage is
    // on) and "Edit with Parley" (opens the web app's image editor with the image).
    permissions: ['storage', 'sidePanel', 'activeTab', 'scripting', 'contextMenus'],
    host_permissions: [...new Set([originPattern(apiUrl), originPattern(webUrl)])],
    // Asked for on a capture click only when activeTab is not in effect (the panel stayed open while the person moved
    // to another tab): captureVisibleTab needs activeTab or <all_urls>. The page content script already runs on every
    // http(s) page, so granting it adds no new kind of access; it can be withdrawn in chrome://extensions.
    optional_host_permissions: ['<all_urls>'],
    action: { default_title: 'Parley' },
    // The page reader (Readability), the quick-access UI (mini menu, quick-access box) and shortcut expansion are
    // imported by the page content script only when a page is read / on the first selection or shortcut / while the
    // person has shortcuts; LinkedIn engagement by LinkedIn's script on its feed, search, activity and stats pages. Content scripts
    // may import only web-accessible files; the dynamic URL changes every session, so pages cannot probe for it.
    web_accessible_resources: [
      {
        resources: ['page-reader.js', 'quick-access.js', 'shortcuts.js', 'linkedin-engage.js'],
        matches: ['http://*/*', 'https://*/*'],
        use_dynamic_url: true,
      },
    ],
    // No externally_connectable: web pages cannot message the extension; only our content scripts can.
  }),
  vite: ({ command }) => ({
    // Our own pages (side panel, full page, options) use the web app's Tailwind setup (src/ui/pages.css). The plugin
    // is typed against the workspace's Vite; WXT builds with its own copy, which runs it the same way.
    plugins: [tailwindcss() as unknown as VitePlugin, quietContentScriptContext()],
    define: {
      // Every build is a production build, the store mode included (React's development build is not shipped).
      ...(command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {}),
      'import.meta.env.PARLEY_API_URL': JSON.stringify(apiUrl.origin),
      'import.meta.env.PARLEY_WEB_URL': JSON.stringify(webUrl.origin),
    },
  }),
  hooks: {
    // The web-app bridge runs on exactly the configured web app origin, known only at build time.
    'entrypoints:resolved': (_wxt, entrypoints) => {
      for (const entrypoint of entrypoints) {
        if (entrypoint.type === 'content-script' && entrypoint.name === 'web-bridge') {
          entrypoint.options.matches = [originPattern(webUrl)];
        }
      }
    },
  },
  zip: { artifactTemplate: 'parley-{{version}}-{{browser}}-{{mode}}.zip' },
});
