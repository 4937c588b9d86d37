interface ImportMetaEnv {
  /** Origin of the API, baked at build time from PARLEY_API_URL (wxt.config.ts). */
  readonly PARLEY_API_URL: string;
  /** Origin of the web app, baked at build time from PARLEY_WEB_URL. */
  readonly PARLEY_WEB_URL: string;
}
