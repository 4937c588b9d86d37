import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, MODELS, type ModelAvailability } from '@parley/contract';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
/** Each test renders the whole app (lazy routes included): generous on a busy machine. */
const LONG = 30_000;

/** The catalogue as a server with only an OpenAI-compatible model sees it. */
const customOnly: ModelAvailability[] = MODELS.map((m) => ({
  id: m.id,
  label: m.provider === 'openaiCompatible' ? 'llama-local' : m.label,
  provider: m.provider,
  tier: m.tier,
  contextWindow: m.contextWindow,
  capabilities: m.capabilities,
  available: m.provider === 'openaiCompatible',
  keySource: m.provider === 'openaiCompatible' ? 'server' : null,
}));

describe('interface language', () => {
  it(
    'switches the whole interface at once and saves the choice to the profile and the cookie',
    async () => {
      const user = userEvent.setup();
      localStorage.setItem('token', 'tok');
      const fetchMock = mockApi({
        'GET /api/user/profile': ok(makeProfile()),
        'POST /api/user/profile': (_url, init) => ok(makeProfile(JSON.parse(String(init.body)) as object), 'Saved'),
        'GET /api/user/setting': ok(DEFAULT_SETTINGS),
        'GET /api/ai/models': ok(customOnly),
      });
      renderApp('/setting/general');
      await user.click(await screen.findByRole('radio', { name: /Spanish/ }, slow));

      expect(await screen.findByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
      expect(await screen.findByRole('heading', { level: 2, name: 'Idioma de la interfaz' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Mostrar u ocultar el menú lateral' })).toBeInTheDocument();
      expect(document.documentElement.lang).toBe('es');
      expect(document.cookie).toContain('lang=es');
      await waitFor(() => {
        const call = fetchMock.mock.calls.find(
          ([url, init]) => String(url).endsWith('/api/user/profile') && init?.method === 'POST',
        );
        expect(JSON.parse(String(call?.[1]?.body))).toEqual({ language: 'es' });
        // Later calls ask for messages in the new language.
        expect(new Headers(call?.[1]?.headers).get('lang-type')).toBe('es');
      });
      expect(document.title).toBe('General | Parley');
      expect(await screen.findByText('Idioma guardado.')).toBeInTheDocument();
    },
    LONG,
  );
});

describe('the default model', () => {
  it(
    'names the models as the chat does, disables those the server cannot run, and says which one answers instead',
    async () => {
      const user = userEvent.setup();
      localStorage.setItem('token', 'tok');
      const fetchMock = mockApi({
        'GET /api/user/profile': ok(makeProfile()),
        'GET /api/user/setting': ok(DEFAULT_SETTINGS),
        'GET /api/ai/models': ok(customOnly),
        'POST /api/user/setting': (_url, init) =>
          ok({ ...DEFAULT_SETTINGS, ...(JSON.parse(String(init.body)) as object) }),
      });
      renderApp('/setting/general');
      const select = await screen.findByRole('combobox', { name: 'Default model' }, slow);
      // GPT-4o mini (the default) cannot run here: the model that answers instead is shown, and the note says so.
      expect(select).toHaveValue('CUSTOM_OPENAI_COMPATIBLE');
      expect(screen.getByText("GPT-4o mini isn't available on this server; using llama-local.")).toBeInTheDocument();
      const options = within(select).getAllByRole('option');
      expect(options.find((o) => o.textContent === 'GPT-4o (needs an API key)')).toBeDisabled();
      expect(options.find((o) => o.textContent === 'llama-local · Basic')).toBeEnabled();
      expect(screen.getByRole('link', { name: 'Add an API key' })).toHaveAttribute('href', '/setting/api-keys');

      // The stored default stays until the person makes the served model theirs; then the note has nothing to say.
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
      await user.click(screen.getByRole('button', { name: 'Make llama-local my default' }));
      await waitFor(() => {
        const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
        expect(JSON.parse(String(call?.[1]?.body))).toEqual({ model: 'CUSTOM_OPENAI_COMPATIBLE' });
      });
      await waitFor(() => expect(screen.queryByText(/isn't available on this server/)).toBeNull());
      expect(await screen.findByText('Saved.')).toBeInTheDocument();
    },
    LONG,
  );
});
