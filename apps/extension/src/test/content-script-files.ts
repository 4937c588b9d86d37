import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** For tests that hold content-script code to a rule (not shipped). The extension's `src` folder. */
export const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every source file these entry files are built from, following relative imports. */
export function filesOf(entries: string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, spec] of code.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const base = path.resolve(path.dirname(file), spec!);
      const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find(
        (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
      );
      if (found && /\.tsx?$/.test(found)) visit(found);
    }
  };
  entries.forEach(visit);
  return [...seen];
}

/** The entry files in src/entrypoints (pages by their main.tsx) that `keep` accepts, by file name. */
export function entrypoints(keep: (name: string) => boolean): string[] {
  const dir = path.join(src, 'entrypoints');
  return readdirSync(dir)
    .map((name) => (statSync(path.join(dir, name)).isDirectory() ? path.join(name, 'main.tsx') : name))
    .filter((name) => keep(name) && existsSync(path.join(dir, name)))
    .map((name) => path.join(dir, name));
}

/** Every source file a content script (or a script imported into one) is built from, following relative imports. */
export function contentScriptFiles(): string[] {
  return filesOf(
    entrypoints(
      (name) =>
        /\.content\.ts$/.test(name) ||
        ['quick-access.ts', 'page-reader.ts', 'shortcuts.ts', 'linkedin-engage.ts'].includes(name),
    ),
  );
}
