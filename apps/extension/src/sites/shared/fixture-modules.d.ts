// Saved page fixtures are imported as text in tests (Vite `?raw`).
declare module '*.html?raw' {
  const html: string;
  export default html;
}
