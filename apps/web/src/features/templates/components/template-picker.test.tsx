import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { formatDate } from '@parley/i18n';
import { renderApp } from '../../../test/render-app';
import { signedIn, threeTemplates } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/template-app', { timeout: 30_000 }, () => {
  it('opened on its own: searches and copies a template with one’s name and the date filled in', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const post = vi.spyOn(window, 'postMessage');
    signedIn({ templates: threeTemplates() });
    renderApp('/template-app');
    expect(await screen.findByRole('heading', { level: 1, name: 'Insert a template' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Insert a template | Parley');
    expect(screen.getByText(/Copy a template, then paste it where you write/)).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'budget');
    expect(screen.queryByRole('button', { name: 'Copy Thanks' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Copy Meeting request' }));
    await waitFor(() =>
      expect(writeText).toHaveBeenCalledWith(
        `Could we meet on ${formatDate(new Date(), 'en')} to talk about the budget?`,
      ),
    );
    expect(screen.getByRole('status')).toHaveTextContent('“Meeting request” copied. Paste it where you write.');

    await user.clear(screen.getByRole('searchbox', { name: 'Search templates' }));
    await user.click(screen.getByRole('button', { name: 'Copy Thanks' }));
    // What only the page knows stays a variable; one's own name is filled in.
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('Hi {{first_name}},\n\nThank you!\n\nAda Lovelace'));
    expect(post).not.toHaveBeenCalledWith(
      expect.objectContaining({ type: 'PARLEY_TEMPLATE_CHOSEN' }),
      expect.anything(),
    );
  });

  it('says when copying failed', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    signedIn({ templates: threeTemplates() });
    renderApp('/template-app/anything');
    await user.click(await screen.findByRole('button', { name: 'Copy Thanks' }, slow));
    expect(await screen.findByText(/It could not be copied/)).toBeInTheDocument();
  });

  it('in the window the extension opened: Insert posts on this window, to this origin, and says what came of it', async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    const post = vi.spyOn(window, 'postMessage').mockImplementation((message: unknown, origin?: unknown) => {
      if ((message as { type?: string }).type !== 'PARLEY_TEMPLATE_CHOSEN') return;
      posted.push(message);
      expect(origin).toBe(window.location.origin);
      // The extension's bridge answers on the same window: the first template reached its box, the second did not.
      const delivered = posted.length === 1;
      setTimeout(() =>
        window.dispatchEvent(
          new MessageEvent('message', {
            data: { type: 'PARLEY_TEMPLATE_RECEIVED', delivered },
            origin: window.location.origin,
            source: window,
          }),
        ),
      );
    });
    signedIn({ templates: threeTemplates() });
    renderApp('/template-app?from=extension');
    expect(await screen.findByRole('heading', { level: 1, name: 'Insert a template' }, slow)).toBeInTheDocument();
    expect(screen.queryByText(/Copy a template, then paste it where you write/)).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Insert Thanks' }, slow));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('“Thanks” sent to the page.'));
    expect(posted).toEqual([
      {
        type: 'PARLEY_TEMPLATE_CHOSEN',
        template: {
          id: threeTemplates()[0]!.id,
          kind: 'mail',
          title: 'Thanks',
          body: 'Hi {{first_name}},\n\nThank you!\n\n{{my_name}}',
          language: null,
        },
      },
    ]);
    await user.click(screen.getByRole('button', { name: 'Insert Connection thanks' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/no longer there/));
    expect(posted).toHaveLength(2);
    expect(post).toHaveBeenCalled();
  });

  it('in the window the extension opened, with no extension answering: says so', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      signedIn({ templates: threeTemplates() });
      renderApp('/template-app?from=extension');
      await user.click(await screen.findByRole('button', { name: 'Insert Thanks' }, slow));
      expect(screen.getByRole('status')).toHaveTextContent('Sending “Thanks” to the page…');
      expect(screen.getByRole('button', { name: 'Insert Thanks' })).toBeDisabled();
      await vi.advanceTimersByTimeAsync(4000);
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/extension did not answer/));
      expect(screen.getByRole('button', { name: 'Insert Thanks' })).toBeEnabled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('framed by an extension page: Insert posts the template to that extension’s origin only', async () => {
    const user = userEvent.setup();
    const EXT = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    const parent = { postMessage: vi.fn() };
    Object.defineProperty(window, 'parent', { value: parent, configurable: true });
    Object.defineProperty(document, 'referrer', { value: `${EXT}/picker.html`, configurable: true });
    try {
      signedIn({ templates: threeTemplates() });
      renderApp('/template-app');
      await user.click(await screen.findByRole('button', { name: 'Insert Connection thanks' }, slow));
      expect(parent.postMessage).toHaveBeenCalledTimes(1);
      expect(parent.postMessage).toHaveBeenCalledWith(
        {
          type: 'PARLEY_TEMPLATE_CHOSEN',
          template: {
            id: threeTemplates()[2]!.id,
            kind: 'message',
            title: 'Connection thanks',
            body: 'Thanks for connecting, {{first_name}}!',
            language: null,
          },
        },
        EXT,
      );
      expect(screen.getByRole('status')).toHaveTextContent('“Connection thanks” sent to the page.');
      expect(screen.queryByRole('button', { name: /^Copy / })).toBeNull();
    } finally {
      // @ts-expect-error back to jsdom's own
      delete window.parent;
      // @ts-expect-error back to jsdom's own
      delete document.referrer;
    }
  });
});
