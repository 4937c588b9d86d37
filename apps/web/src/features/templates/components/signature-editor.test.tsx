import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Signature } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, IDS, makeSignature, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };
const HOSTILE =
  '<b>Ada Lovelace</b><br><a href="https://ada.example.com/">ada.example.com</a>' +
  '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)" onclick="alert(4)">x</a>';
const LINK = 'target="_blank" rel="noopener noreferrer"';
const CLEAN = `<b>Ada Lovelace</b><br><a href="https://ada.example.com/" ${LINK}>ada.example.com</a><a ${LINK}>x</a>`;

/** Nothing hostile ever became part of the app's page. */
function expectNoLiveHostileMarkup() {
  expect(document.querySelector('script')).toBeNull();
  expect(document.querySelector('[onerror], [onclick], [onload]')).toBeNull();
  expect(document.querySelector('a[href^="javascript:"]')).toBeNull();
}

const editor = () => screen.getByTestId('signature-editor');
const preview = () => screen.getByTitle('Preview of the signature in a mail') as HTMLIFrameElement;

/** The server's answer to an added or changed signature: what it was sent, its HTML cleaned (here: as expected). */
const stored = (id: string) => (_url: URL, init: RequestInit) => {
  const body = JSON.parse(String(init.body)) as { name: string; html: string; defaultFor: string[] };
  return ok(makeSignature({ id, ...body }), 'Signature saved.');
};

let exec: ReturnType<typeof vi.fn>;
beforeEach(() => {
  // jsdom has no editing commands; the browser's are what the toolbar calls.
  exec = vi.fn(() => true);
  document.execCommand = exec as unknown as typeof document.execCommand;
});
afterEach(() => {
  // @ts-expect-error put back as jsdom has it
  delete document.execCommand;
});

describe('the signature editor', { timeout: 30_000 }, () => {
  it('cleans hostile HTML before it reaches the page, previews it in a frame without scripts, and saves it', async () => {
    const user = userEvent.setup();
    const server: Signature[] = [];
    const fetchMock = signedIn(
      {},
      {
        'GET /api/template/signature/getAll': () => ok({ signatures: server }),
        'POST /api/template/signature/add': async (url, init) => {
          const answer = stored(IDS.work)(url, init);
          server.push(answer.body.data as Signature);
          return answer;
        },
      },
    );
    renderApp('/template/signature/new');
    await screen.findByRole('textbox', { name: 'Name' }, slow);
    expect(document.title).toBe('New signature | Parley');

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Work');
    await user.click(screen.getByRole('button', { name: 'Edit the HTML' }));
    const source = screen.getByRole('textbox', { name: 'Signature HTML' });
    await user.click(source);
    await user.paste(HOSTILE);
    expectNoLiveHostileMarkup();

    // The preview: sandboxed, no scripts, no same origin; its document is the cleaned HTML.
    const frame = preview();
    const sandbox = frame.getAttribute('sandbox')!.split(/\s+/);
    expect(sandbox).not.toContain('allow-scripts');
    expect(sandbox).not.toContain('allow-same-origin');
    expect(frame.getAttribute('srcdoc')).toContain(CLEAN);
    expect(frame.getAttribute('srcdoc')).not.toMatch(/onerror|onclick|<script|javascript:/);

    await user.click(screen.getByRole('button', { name: 'Edit the HTML' }));
    await waitFor(() => expect(editor().innerHTML).toBe(CLEAN));
    expect(within(editor()).getByRole('link', { name: 'ada.example.com' })).toHaveAttribute(
      'href',
      'https://ada.example.com/',
    );
    expectNoLiveHostileMarkup();

    // Default in Gmail and for one address (a wrong one first).
    await user.click(screen.getByRole('checkbox', { name: 'Gmail' }));
    const address = screen.getByRole('textbox', { name: 'Default for a mail address' });
    await user.type(address, 'not-an-address{Enter}');
    expect(screen.getByText('Enter a mail address.')).toBeInTheDocument();
    await user.clear(address);
    await user.type(address, 'Ada@Example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(within(screen.getByRole('list', { name: 'Default for these addresses' })).getByText('ada@example.com'));

    expect(screen.getByText(/Not saved yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, 'POST /api/template/signature/add')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/template/signature/add')[0])).toEqual({
      name: 'Work',
      html: CLEAN,
      defaultFor: ['gmail', 'ada@example.com'],
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit signature' })).toBeInTheDocument();
    expect(await screen.findByText('Saved: this is what your mails get.')).toBeInTheDocument();
    expect(editor().innerHTML).toBe(CLEAN);
    expectNoLiveHostileMarkup();
  });

  it('a hostile paste into the editor goes in cleaned', async () => {
    signedIn();
    renderApp('/template/signature/new');
    await screen.findByRole('textbox', { name: 'Name' }, slow);
    fireEvent.paste(editor(), {
      clipboardData: { getData: (type: string) => (type === 'text/html' ? HOSTILE : 'plain') },
    });
    expect(exec).toHaveBeenCalledWith('insertHTML', false, CLEAN);
    expectNoLiveHostileMarkup();

    fireEvent.paste(editor(), {
      clipboardData: { getData: (type: string) => (type === 'text/plain' ? '<img src=x onerror=alert(1)>\nline' : '') },
    });
    expect(exec).toHaveBeenLastCalledWith('insertHTML', false, '&lt;img src=x onerror=alert(1)&gt;<br>line');
  });

  it('formats with the toolbar: bold, italic, underline, lists, and a link from what is typed', async () => {
    const user = userEvent.setup();
    signedIn();
    renderApp('/template/signature/new');
    await screen.findByRole('textbox', { name: 'Name' }, slow);
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting' });
    for (const [name, command] of [
      ['Bold', 'bold'],
      ['Italic', 'italic'],
      ['Underline', 'underline'],
      ['Bulleted list', 'insertUnorderedList'],
      ['Numbered list', 'insertOrderedList'],
    ] as const) {
      await user.click(within(toolbar).getByRole('button', { name }));
      expect(exec).toHaveBeenLastCalledWith(command, false, undefined);
    }

    await user.click(within(toolbar).getByRole('button', { name: 'Link' }));
    const url = screen.getByRole('textbox', { name: 'Link address' });
    await user.type(url, 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Add link' }));
    expect(screen.getByText(/Enter a web address/)).toBeInTheDocument();
    await user.clear(url);
    await user.type(url, 'ada.example.com');
    await user.click(screen.getByRole('button', { name: 'Add link' }));
    // Nothing selected: the address goes in as its own link.
    expect(exec).toHaveBeenLastCalledWith(
      'insertHTML',
      false,
      `<a href="https://ada.example.com" ${LINK}>ada.example.com</a>&nbsp;`,
    );
  });

  it('opens a signature with where it is the default, and asks before deleting it', async () => {
    const user = userEvent.setup();
    const signature = makeSignature({ defaultFor: ['outlook', 'ada@work.example'] });
    const fetchMock = signedIn(
      { signatures: [signature] },
      {
        [`PUT /api/template/signature/update/${IDS.work}`]: stored(IDS.work),
        [`DELETE /api/template/signature/delete/${IDS.work}`]: ok({ deleted: 1 }, 'Signature deleted.'),
      },
    );
    renderApp(`/template/signature/${IDS.work}`);
    expect(await screen.findByRole('textbox', { name: 'Name' }, slow)).toHaveValue('Work');
    expect(document.title).toBe('Edit signature | Parley');
    await waitFor(() => expect(editor().innerHTML).toBe(signature.html));
    expect(screen.getByRole('checkbox', { name: 'Outlook' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Gmail' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Remove ada@work.example' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, `PUT /api/template/signature/update/${IDS.work}`)).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, `PUT /api/template/signature/update/${IDS.work}`)[0]).defaultFor).toEqual([
      'outlook',
    ]);

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete the signature “Work”?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Signatures' })).toBeInTheDocument();
  });

  it('lists signatures with where each is the default, each previewed in a sandboxed frame', async () => {
    signedIn({
      signatures: [
        makeSignature(),
        makeSignature({
          id: '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c02',
          name: 'Personal',
          defaultFor: [],
          // Even were the server to answer something hostile, the page would not run it.
          html: '<i>Ada</i><img src=x onerror=alert(1)>',
        }),
      ],
    });
    renderApp('/template/signature');
    const list = await screen.findByRole('list', { name: 'Your signatures' }, slow);
    expect(document.title).toBe('Signatures | Parley');
    expect(within(list).getByText('Default in Gmail')).toBeInTheDocument();
    expect(within(list).getByText('Not a default')).toBeInTheDocument();
    const frames = within(list).getAllByTitle('Preview of the signature in a mail');
    expect(frames).toHaveLength(2);
    for (const frame of frames) expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts|allow-same-origin/);
    expect(frames[1]!.getAttribute('srcdoc')).toContain('<i>Ada</i>');
    expect(frames[1]!.getAttribute('srcdoc')).not.toContain('onerror');
    expectNoLiveHostileMarkup();
  });
});

describe('the feature’s own code', () => {
  it('never puts HTML in the page with dangerouslySetInnerHTML', () => {
    const files = import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true });
    const offenders = Object.entries(files)
      .filter(([path]) => !path.endsWith('.test.tsx') && !path.endsWith('.test.ts'))
      .filter(([, source]) => source.includes('dangerouslySetInnerHTML'))
      .map(([path]) => path);
    expect(Object.keys(files).length).toBeGreaterThan(10);
    expect(offenders).toEqual([]);
  });
});
