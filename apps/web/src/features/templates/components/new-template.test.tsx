import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getI18n } from '../../../lib/i18n';
import { makeProfile, ok, renderApp } from '../../../test/render-app';
import { calls, queryOf, refused, signedIn } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('/new-template', { timeout: 30_000 }, () => {
  it('offers each kind, a signature and a shortcut', async () => {
    signedIn();
    renderApp('/new-template');
    expect(await screen.findByRole('heading', { level: 1, name: 'New template' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('New template | Parley');
    expect(screen.getByRole('link', { name: /Reply template/ })).toHaveAttribute('href', '/template/new?kind=mail');
    expect(screen.getByRole('link', { name: /Message template/ })).toHaveAttribute(
      'href',
      '/template/new?kind=message',
    );
    expect(screen.getByRole('link', { name: /Custom reply/ })).toHaveAttribute(
      'href',
      '/template/new?kind=customReply',
    );
    expect(screen.getByRole('link', { name: /^Signature/ })).toHaveAttribute('href', '/template/signature/new');
    expect(screen.getByRole('link', { name: /^Shortcut/ })).toHaveAttribute('href', '/template/shortcuts?new=1');
  });

  it('an example opens in the editor, its variables intact, not saved until Save', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn();
    renderApp('/new-template');
    await screen.findByRole('heading', { name: 'Start from an example' }, slow);
    await user.selectOptions(screen.getAllByRole('combobox', { name: 'Kind' })[1]!, 'message');
    const examples = screen.getByRole('list', { name: 'Examples: Message template' });
    expect(within(examples).getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    await user.click(screen.getByRole('button', { name: 'Use the example “Introduce myself”' }));

    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveValue('Introduce myself');
    expect(screen.getByRole('textbox', { name: 'Text' })).toHaveValue(
      'Hi {{first_name}}, I am {{my_name}}. I work on similar topics and would love to exchange ideas some time. Would you be open to a short call?',
    );
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveValue('message');
    expect(screen.getByText('An example to start from: nothing is saved until you press Save.')).toBeInTheDocument();
    expect(screen.getByTestId('template-preview')).toHaveTextContent('Hi Sam, I am Ada Lovelace.');
    expect(calls(fetchMock, 'POST /api/template/add')).toHaveLength(0);
  });

  it('examples come in the reader’s language', async () => {
    await getI18n().changeLanguage('fr');
    signedIn({}, { 'GET /api/user/profile': ok(makeProfile({ language: 'fr' })) });
    renderApp('/new-template');
    expect(await screen.findByRole('heading', { name: 'Partir d’un exemple' }, slow)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Merci pour votre message' })).toBeInTheDocument();
    expect(document.title).toBe('Nouveau modèle | Parley');
  });

  it('writes a template with the AI from a sentence and opens it in the editor, unsaved', async () => {
    const user = userEvent.setup();
    const fetchMock = signedIn(
      {},
      {
        'POST /api/template/ai': ok({
          title: 'Order shipped',
          body: 'Hi {{first_name}},\n\nThanks for your order: it ships tomorrow.\n\n{{my_name}}',
        }),
      },
    );
    renderApp('/new-template');
    await screen.findByRole('heading', { name: 'Write it with AI' }, slow);
    await user.click(screen.getByRole('button', { name: 'Write it' }));
    expect(screen.getByText('Say in a few words what to write.')).toBeInTheDocument();
    expect(calls(fetchMock, 'POST /api/template/ai')).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'What should it say?' }), 'Thank a customer, ships tomorrow');
    await user.selectOptions(screen.getAllByRole('combobox', { name: 'Tone' })[0]!, 'FRIENDLY');
    await user.click(screen.getByRole('button', { name: 'Write it' }));

    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveValue('Order shipped');
    const query = queryOf(calls(fetchMock, 'POST /api/template/ai')[0]);
    expect(Object.fromEntries(query)).toEqual({
      prompt: 'Thank a customer, ships tomorrow',
      kind: 'mail',
      tone: 'FRIENDLY',
    });
    expect(screen.getByText(/Written by AI/)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Tone' })).toHaveValue('FRIENDLY');
    expect(screen.getByTestId('template-preview')).toHaveTextContent(
      'Hi Sam, Thanks for your order: it ships tomorrow.',
    );
    expect(calls(fetchMock, 'POST /api/template/add')).toHaveLength(0);
  });

  it('a draft refused for the day’s free uses shows the server’s words and See plans', async () => {
    const user = userEvent.setup();
    signedIn(
      {},
      {
        'POST /api/template/ai': refused(
          402,
          'DAILY_LIMIT_REACHED',
          'You have used your 3 free AI uses today. Come back tomorrow or choose a plan.',
        ),
      },
    );
    renderApp('/new-template');
    await screen.findByRole('heading', { name: 'Write it with AI' }, slow);
    await user.type(screen.getByRole('textbox', { name: 'What should it say?' }), 'A polite no');
    await user.click(screen.getByRole('button', { name: 'Write it' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You have used your 3 free AI uses today. Come back tomorrow or choose a plan.');
    expect(within(alert).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscription');
    // Still here, the sentence kept for later.
    expect(screen.getByRole('textbox', { name: 'What should it say?' })).toHaveValue('A polite no');
  });

  it('another refusal says why, without See plans', async () => {
    const user = userEvent.setup();
    signedIn({}, { 'POST /api/template/ai': refused(502, 'PROVIDER_ERROR', 'The AI did not answer. Try again.') });
    renderApp('/new-template');
    await screen.findByRole('heading', { name: 'Write it with AI' }, slow);
    await user.type(screen.getByRole('textbox', { name: 'What should it say?' }), 'Anything');
    await user.click(screen.getByRole('button', { name: 'Write it' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The AI did not answer. Try again.'));
    expect(screen.queryByRole('link', { name: 'See plans' })).toBeNull();
  });
});
