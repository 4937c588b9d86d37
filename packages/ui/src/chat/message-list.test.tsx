import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nextProvider } from 'react-i18next';
import { WRITING_LANGUAGES } from '@parley/contract/values';
import { createI18n } from '@parley/i18n';
import chatEn from '@parley/i18n/locales/en/chat.json';
import chatFr from '@parley/i18n/locales/fr/chat.json';
import { MessageList, type ChatViewMessage } from './message-list.js';
import { ChatServicesProvider, type ChatServices } from './services.js';

const answer: ChatViewMessage = {
  key: 'a1',
  role: 'assistant',
  text: 'The **station** is near.',
  status: 'complete',
  model: 'CUSTOM_OPENAI_COMPATIBLE',
  modelLabel: 'parley-test-model',
  error: null,
  sources: [],
  createdAt: '2020-01-02T09:05:00Z',
};

function setup(services: Partial<ChatServices> = {}, language = 'en', messages: ChatViewMessage[] = [answer]) {
  const i18n = createI18n({
    language,
    resources: { en: { chat: chatEn }, fr: { chat: chatFr } },
    namespaces: ['chat'],
    defaultNS: 'chat',
  });
  const value: ChatServices = {
    transcribe: vi.fn(async () => ''),
    translate: vi.fn(async ({ target }) => `(${target}) La **estación** está cerca.`),
    errorText: () => null,
    ...services,
  };
  render(
    <I18nextProvider i18n={i18n}>
      <ChatServicesProvider value={value}>
        <MessageList messages={messages} busy={false} />
      </ChatServicesProvider>
    </I18nextProvider>,
  );
  return { user: userEvent.setup(), services: value };
}

afterEach(() => {
  // Unmounted first: the speech hook cancels on unmount, before its stand-in goes away.
  cleanup();
  vi.unstubAllGlobals();
});

describe('MessageList', () => {
  it('an answer refused for credits or plan (402) offers the plans; another failure does not', () => {
    const upgradeLink = vi.fn((error: unknown) =>
      (error as { status?: number }).status === 402 ? <a href="/subscription">See plans</a> : null,
    );
    const failed = (key: string, errorStatus: number): ChatViewMessage => ({
      ...answer,
      key,
      text: '',
      status: 'failed',
      error: `refused ${errorStatus}`,
      errorStatus,
    });
    setup({ upgradeLink }, 'en', [failed('a', 402), failed('b', 503)]);
    const alerts = screen.getAllByRole('alert');
    expect(within(alerts[0]!).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscription');
    expect(within(alerts[1]!).queryByRole('link')).toBeNull();
    expect(upgradeLink).toHaveBeenCalledWith({ status: 402 });
  });

  it('translates an answer with the model that wrote it and shows the translation under it', async () => {
    const { user, services } = setup();
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    const menu = screen.getByRole('menu', { name: 'Translate to' });
    // Every writing language the settings offer, by its name in the interface's language.
    expect(within(menu).getAllByRole('menuitem')).toHaveLength(WRITING_LANGUAGES.length);
    expect(within(menu).getByRole('menuitem', { name: 'Ukrainian' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Traditional Chinese' })).toBeInTheDocument();
    await user.click(within(menu).getByRole('menuitem', { name: /^spanish$/i }));
    expect(services.translate).toHaveBeenCalledWith({
      text: 'The **station** is near.',
      target: 'Spanish',
      model: 'CUSTOM_OPENAI_COMPATIBLE',
    });
    const region = await screen.findByRole('region', { name: 'Translation (Spanish)' });
    expect(region).toHaveTextContent('(Spanish) La estación está cerca.');
    expect(within(region).getByText('estación').tagName).toBe('STRONG');
    await user.click(within(region).getByRole('button', { name: 'Hide the translation' }));
    expect(screen.queryByRole('region')).toBeNull();
  });

  it("says why a translation failed, in the server's words or its own", async () => {
    const { user } = setup({
      translate: vi.fn(async () => {
        throw new Error('offline');
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: /^german$/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent(chatEn.message.translateFailed);
  });

  it('under a translation refused for credits, offers the way to the plans the app gives; not for other failures', async () => {
    const refused = Object.assign(new Error('Out of credits'), { status: 402 });
    const translate = vi.fn(async () => {
      throw refused;
    });
    const upgradeLink = vi.fn((error: unknown) =>
      (error as { status?: number }).status === 402 ? <a href="/subscription">See plans</a> : null,
    );
    const { user } = setup({ translate, errorText: (e) => (e as Error).message, upgradeLink });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: /^german$/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Out of credits');
    expect(screen.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscription');
    expect(upgradeLink).toHaveBeenCalledWith(refused);

    translate.mockImplementation(async () => {
      throw new Error('offline');
    });
    await user.click(screen.getByRole('button', { name: 'Translate' }));
    await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: /^french$/i }));
    expect(await screen.findByRole('alert')).toHaveTextContent('offline');
    expect(screen.queryByRole('link', { name: 'See plans' })).toBeNull();
  });

  it('reads an answer aloud in the interface language, without the Markdown, and stops', async () => {
    const spoken: { text: string; lang: string }[] = [];
    vi.stubGlobal(
      'SpeechSynthesisUtterance',
      class {
        lang = '';
        voice: unknown = null;
        onend: (() => void) | null = null;
        onerror: (() => void) | null = null;
        constructor(readonly text: string) {}
      },
    );
    vi.stubGlobal('speechSynthesis', {
      speak: (u: { text: string; lang: string }) => spoken.push({ text: u.text, lang: u.lang }),
      cancel: vi.fn(),
      getVoices: () => [],
    });
    const { user } = setup({}, 'fr');
    await user.click(screen.getByRole('button', { name: chatFr.message.readAloud }));
    expect(spoken).toEqual([{ text: 'The station is near.', lang: 'fr-FR' }]);
    await user.click(screen.getByRole('button', { name: chatFr.message.stopReading }));
    expect(screen.getByRole('button', { name: chatFr.message.readAloud })).toBeInTheDocument();
  });

  it('names the languages to translate to in the interface language, each starting with a capital', async () => {
    const { user } = setup({}, 'fr');
    await user.click(screen.getByRole('button', { name: chatFr.message.translate }));
    const menu = screen.getByRole('menu', { name: chatFr.message.translateTo });
    // Intl names them in lower case in French ('chinois simplifié'); only the first letter becomes a capital.
    expect(within(menu).getByRole('menuitem', { name: 'Chinois simplifié' })).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Ukrainien' })).toBeInTheDocument();
  });

  it('shows when an answer was written, as every list does', () => {
    setup({}, 'fr');
    const time = screen.getByRole('article').querySelector('time')!;
    expect(time).toHaveAttribute('dateTime', '2020-01-02T09:05:00Z');
    expect(time.textContent).toMatch(/^2 janv\. 2020$/);
    expect(time.title).toMatch(/2020/);
  });
});
