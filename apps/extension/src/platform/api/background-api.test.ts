import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentScriptFiles, entrypoints, filesOf, src } from '../../test/content-script-files';

const importsClient = (file: string) => /from '@parley\/api-client(\/[^']*)?'/.test(readFileSync(file, 'utf8'));
const names = (files: string[]) => files.map((file) => path.relative(src, file)).sort();

describe('the API client lives in the background only', () => {
  it('the background worker is built with it', () => {
    expect(names(filesOf(entrypoints((name) => name === 'background.ts')).filter(importsClient))).toContain(
      'platform/api/background-api.ts',
    );
  });

  it('no content script imports it: their calls go to the background as messages (API_CALL)', () => {
    const files = contentScriptFiles();
    expect(names(files)).toContain('entrypoints/gmail.content.ts');
    expect(names(files.filter(importsClient))).toEqual([]);
  });

  it('nor do our pages (side panel, full page, options): the token never leaves the background', () => {
    const files = filesOf(entrypoints((name) => name.endsWith('main.tsx')));
    expect(names(files)).toContain('features/chat/chat-panel.tsx');
    expect(names(files.filter(importsClient))).toEqual([]);
  });
});
