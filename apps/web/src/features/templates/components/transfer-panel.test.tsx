import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { importBodySchema } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, makeShortcut, makeSignature, signedIn, threeTemplates } from '../test-fixtures';

const slow = { timeout: 10_000 };

/** Catches the file the page offers to download. */
function catchDownload() {
  const saved: { blob?: Blob; name?: string } = {};
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.blob = blob as Blob;
    return 'blob:export';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.name = this.download;
  });
  return saved;
}

const fileInput = () => screen.getByLabelText('File to import') as HTMLInputElement;

describe('export and import', { timeout: 30_000 }, () => {
  it('exports everything as one JSON file that imports back as it was', async () => {
    const user = userEvent.setup();
    const saved = catchDownload();
    const everything = {
      templates: threeTemplates(),
      signatures: [makeSignature()],
      shortcuts: [makeShortcut(), makeShortcut({ id: 'other', key: 'addr', text: '221B Baker Street' })],
    };
    const fetchMock = signedIn(everything, {
      'POST /api/template/import': ok({ templates: 3, signatures: 1, shortcuts: 1, skippedKeys: ['thx'] }),
    });
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);

    await user.click(screen.getByRole('button', { name: 'Export all' }));
    await waitFor(() => expect(saved.blob).toBeDefined());
    expect(saved.name).toMatch(/^parley-templates-\d{4}-\d{2}-\d{2}\.json$/);
    expect(
      await screen.findByText(`Saved ${saved.name} (Templates: 3 · Signatures: 1 · Shortcuts: 2).`),
    ).toBeInTheDocument();
    const text = await saved.blob!.text();
    const exported = JSON.parse(text);
    // Exactly what the import call takes: no ids, no dates, every field the contract knows.
    expect(importBodySchema.safeParse(exported).success).toBe(true);
    expect(exported.templates[0]).toEqual({
      kind: 'mail',
      title: 'Thanks',
      body: 'Hi {{first_name}},\n\nThank you!\n\n{{my_name}}',
      language: null,
      tone: null,
      length: null,
    });
    expect(exported.signatures).toEqual([{ name: 'Work', html: makeSignature().html, defaultFor: ['gmail'] }]);
    expect(exported.shortcuts.map((s: { key: string }) => s.key)).toEqual(['thx', 'addr']);

    // The same file back in: counted, confirmed, sent as it was, the result said.
    await user.upload(fileInput(), new File([text], 'backup.json', { type: 'application/json' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Import backup.json?' });
    expect(dialog).toHaveTextContent('Templates: 3 · Signatures: 1 · Shortcuts: 2');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/import')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/import')[0])).toEqual(exported);
    expect(await screen.findByText('Imported. Templates: 3 · Signatures: 1 · Shortcuts: 1.')).toBeInTheDocument();
    expect(screen.getByText('These shortcuts were yours already and were left as they are: ;thx.')).toBeInTheDocument();
    // Everything is read again.
    await waitFor(() => expect(calls(fetchMock, 'GET /api/template/getAll').length).toBeGreaterThanOrEqual(3));
  });

  it('refuses a file that is not JSON, or not an export, before sending anything', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn({ templates: threeTemplates() });
    renderApp('/template');
    await screen.findByRole('link', { name: 'Thanks' }, slow);

    await user.upload(fileInput(), new File(['not json'], 'a.json', { type: 'application/json' }));
    expect(await screen.findByText('This file is not JSON. Choose a file exported from Parley.')).toBeInTheDocument();

    const wrong = JSON.stringify({ templates: [{ title: 'No body' }] });
    await user.upload(fileInput(), new File([wrong], 'b.json', { type: 'application/json' }));
    expect(
      await screen.findByText('This file is not a Parley templates export (look at templates.0.body).'),
    ).toBeInTheDocument();

    const extra = JSON.stringify({ templates: [], secrets: 'x' });
    await user.upload(fileInput(), new File([extra], 'c.json', { type: 'application/json' }));
    expect(await screen.findByText('This file is not a Parley templates export.')).toBeInTheDocument();

    await user.upload(fileInput(), new File(['{}'], 'd.json', { type: 'application/json' }));
    expect(await screen.findByText('This file has nothing to import.')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST /api/template/import')).toHaveLength(0);
  });
});
