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
