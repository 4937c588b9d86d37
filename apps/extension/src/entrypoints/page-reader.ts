import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { readPage, type PageReaderGlobal } from '../features/page-reader/read-page';

/** Imported by the page content script when a page is read (web-accessible, see wxt.config.ts). */
export default defineUnlistedScript(() => {
  (globalThis as PageReaderGlobal).__parleyReadPage = () => readPage(document, location.href);
});
