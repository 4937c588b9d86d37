import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderApp } from '../../../test/render-app';
import { bodyOf, calls, IDS, makeShortcut, queryOf, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };
const keyNote = () =>
  document.getElementById(screen.getByRole('textbox', { name: 'Key' }).getAttribute('aria-describedby')!)!;

/** shortcutExists as the server answers it: `thx` is already the person's. */
const exists = (url: URL) => {
  const key = url.searchParams.get('key') ?? '';
  return ok({ exists: key === 'thx', valid: /^[a-z0-9][a-z0-9_-]{0,31}$/.test(key) });
};

describe('/template/shortcuts', { timeout: 30_000 }, () => {
  it('lists key → text with the trigger shown', async () => {
    signedIn({ shortcuts: [makeShortcut(), makeShortcut({ id: 'x', key: 'addr', text: '221B Baker Street' })] });
    renderApp('/template/shortcuts');
    const list = await screen.findByRole('list', { name: 'Your shortcuts' }, slow);
    expect(document.title).toBe('Shortcuts | Parley');
    expect(within(list).getByText(';thx')).toBeInTheDocument();
    expect(within(list).getByText('Thank you very much!')).toBeInTheDocument();
    expect(screen.getByText(/Type ;thx \(the trigger ; and a key\)/)).toBeInTheDocument();
    expect(
      screen.getByText(
        (_, el) => el?.tagName === 'P' && el.textContent === 'Trigger: ; · The extension’s settings can change it.',
      ),
    ).toBeInTheDocument();

    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search shortcuts' }), 'baker');
    expect(within(screen.getByRole('list', { name: 'Your shortcuts' })).queryByText(';thx')).toBeNull();
  });

  it('checks the key as it is typed: its form at once, whether it is already yours after a pause', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      { shortcuts: [makeShortcut()] },
      {
        'GET /api/shortcut-template/exist/': exists,
        'POST /api/shortcut-template/': (_url, init) =>
          ok(makeShortcut({ id: 'new', ...JSON.parse(String(init.body)) }), 'Shortcut saved.'),
      },
    );
    renderApp('/template/shortcuts?new=1');
    const key = await screen.findByRole('textbox', { name: 'Key' }, slow);
    expect(screen.getByRole('heading', { name: 'New shortcut' })).toBeInTheDocument();

    await user.type(key, 'no way');
    expect(keyNote()).toHaveTextContent(
      'Use lower-case letters, digits, - and _, starting with a letter or a digit, up to 32.',
    );
    expect(key).toHaveAttribute('aria-invalid', 'true');
    await user.clear(key);
    await user.type(key, '-x');
    expect(keyNote()).toHaveTextContent(/^Use lower-case letters/);

    await user.clear(key);
    await user.type(key, 'THX');
    // Upper case is read as lower case, as the server keeps it; the server is asked once the typing stops.
    expect(keyNote()).toHaveTextContent('Checking…');
    await waitFor(() => expect(keyNote()).toHaveTextContent('You already have ;thx.'));
    const asked = calls(fetchMock, 'GET /api/shortcut-template/exist/');
    expect(asked.map((c) => queryOf(c).get('key'))).toEqual(['thx']);

    await user.type(key, 'x');
    await waitFor(() => expect(keyNote()).toHaveTextContent(';thxx is free.'));
    expect(key).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Write the text.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Text' }), 'Thanks a lot!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, 'POST /api/shortcut-template/')).toHaveLength(1));
    expect(bodyOf(calls(fetchMock, 'POST /api/shortcut-template/')[0])).toEqual({ key: 'thxx', text: 'Thanks a lot!' });
    expect(await screen.findByText(';thxx')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Key' })).toBeNull();
  });

  it('a key taken meanwhile is said at the key', async () => {
    const user = userEvent.setup();
    signedIn(
      {},
      {
        'GET /api/shortcut-template/exist/': () => ok({ exists: false, valid: true }),
        'POST /api/shortcut-template/': refused(400, 'SHORTCUT_KEY_TAKEN', 'You already have the shortcut ;hi.'),
      },
    );
    renderApp('/template/shortcuts');
    await user.click(await screen.findByRole('button', { name: 'New shortcut' }, slow));
    await user.type(screen.getByRole('textbox', { name: 'Key' }), 'hi');
    await waitFor(() => expect(keyNote()).toHaveTextContent(';hi is free.'));
    await user.type(screen.getByRole('textbox', { name: 'Text' }), 'Hello!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(keyNote()).toHaveTextContent('You already have the shortcut ;hi.'));
    expect(screen.getByRole('textbox', { name: 'Key' })).toHaveFocus();
  });

  it('editing keeps its own key without asking, and saves with PUT', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      { shortcuts: [makeShortcut()] },
      {
        'GET /api/shortcut-template/exist/': exists,
        [`PUT /api/shortcut-template/${IDS.thx}`]: (_url, init) =>
          ok(makeShortcut(JSON.parse(String(init.body))), 'Shortcut saved.'),
      },
    );
    renderApp('/template/shortcuts');
    await user.click(await screen.findByRole('button', { name: 'Edit ;thx' }, slow));
    expect(screen.getByRole('textbox', { name: 'Key' })).toHaveValue('thx');
    expect(keyNote()).toHaveTextContent('Lower-case letters, digits, - and _, up to 32.');
    await user.clear(screen.getByRole('textbox', { name: 'Text' }));
    await user.type(screen.getByRole('textbox', { name: 'Text' }), 'Many thanks!');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetchMock, `PUT /api/shortcut-template/${IDS.thx}`)).toHaveLength(1));
    expect(calls(fetchMock, 'GET /api/shortcut-template/exist/')).toHaveLength(0);
    expect(await screen.findByText('Many thanks!')).toBeInTheDocument();
  });

  it('writes the text with the AI, and shows a 402 with See plans', async () => {
    const user = userEvent.setup();
    let answers = 0;
    signedIn(
      {},
      {
        'POST /api/shortcut-template/ai': () =>
          ++answers === 1
            ? ok({ text: 'Thank you so much for your help!' })
            : refused(402, 'OUT_OF_CREDITS', 'You have no credits left.'),
      },
    );
    renderApp('/template/shortcuts?new=1');
    await screen.findByRole('textbox', { name: 'Key' }, slow);
    await user.click(screen.getByRole('button', { name: 'Write it with AI' }));
    await user.type(screen.getByRole('textbox', { name: 'What should it say?' }), 'thank someone{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Text' })).toHaveValue('Thank you so much for your help!'),
    );
    await user.click(screen.getByRole('button', { name: 'Write it' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You have no credits left.');
    expect(within(alert).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscription');
  });

  it('deletes a shortcut after a confirmation', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      { shortcuts: [makeShortcut()] },
      { [`DELETE /api/shortcut-template/${IDS.thx}`]: ok({ deleted: 1 }, 'Shortcut deleted.') },
    );
    renderApp('/template/shortcuts');
    await user.click(await screen.findByRole('button', { name: 'Delete ;thx' }, slow));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete the shortcut ;thx?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('No shortcuts yet')).toBeInTheDocument();
    expect(calls(fetchMock, `DELETE /api/shortcut-template/${IDS.thx}`)).toHaveLength(1);
  });
});
