import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeProfile, mockApi, ok, renderApp } from '../../../test/render-app';

describe('interface language', () => {
  it('switches the whole interface at once and saves the choice to the profile and the cookie', async () => {
    const user = userEvent.setup();
    localStorage.setItem('token', 'tok');
    const fetchMock = mockApi({
      'GET /api/user/profile': ok(makeProfile()),
      'POST /api/user/profile': (_url, init) => ok(makeProfile(JSON.parse(String(init.body)) as object), 'Saved'),
    });
    renderApp('/setting/general');
    await user.click(await screen.findByRole('radio', { name: /Spanish/ }, { timeout: 4000 }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Ajustes' })).toBeInTheDocument();
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
    expect(document.title).toBe('Idioma de la interfaz | Parley');
    expect(await screen.findByText('Idioma guardado.')).toBeInTheDocument();
  });
});
