import { ContentScriptContext as WxtContentScriptContext } from 'wxt/utils/content-script-context';

/**
 * The context every content script's `main(ctx)` gets: WXT's (timers, `onInvalidated`, `isValid`), minus the way it
 * announces itself. WXT's constructor posts `{ type: '<extension id>:<script>:wxt:content-script-started' }` to the
 * page's window with target '*' and fires a DOM event of that name on the document, so that a newer copy of the script
 * (after an update) can stop an older one. Every page hears the message, which tells it that Parley is installed (and
 * its id); and since the old copy trusts that event, any page could fire it to switch Parley off.
 *
 * Ours says nothing to the page. An orphaned copy (its extension was updated or reloaded) stops on its own: `isValid`
 * reads `browser.runtime.id`, which is gone once the extension context is, and every timer and page watcher of the
 * on-site UI (`ctx.setTimeout`, `watchPage`, the quick-access listeners) checks it, which runs the `onInvalidated`
 * callbacks that remove what it mounted.
 *
 * wxt.config.ts hands this class to WXT's content script entry instead of WXT's own (a build plugin: WXT has no option
 * for it).
 */
export class ContentScriptContext extends WxtContentScriptContext {
  override stopOldScripts(): void {}

  override listenForNewerScripts(): void {}
}
