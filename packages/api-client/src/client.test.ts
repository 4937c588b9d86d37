import { describe, expect, it } from 'vitest';
import { ApiError, loggedOutReason } from './client';
import { chatStream, fileBytes, transcribe } from './streams';
import { json, loggedOut, ok, setup } from './test-server';

describe('the envelope', () => {
  it('resolves with `data`, or with the whole { status, message, data }', async () => {
    const { client, fetchMock } = setup(() => ok({ id: 'u1' }, 'Profil'));
    await expect(client.call('profile')).resolves.toEqual({ id: 'u1' });
    await expect(client.request('profile')).resolves.toEqual({ data: { id: 'u1' }, message: 'Profil', status: 200 });
    expect(fetchMock.mock.calls[0]![0]).toBe('http://api.test/api/user/profile');
  });

  it('sends the body as JSON and the query in the address (empty values left out)', async () => {
    const { client, fetchMock, headersOf } = setup(() => ok(null));
    await client.call('translate', { body: { text: 'hola', target: 'en' } });
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ text: 'hola', target: 'en' });
    expect(headersOf().get('content-type')).toBe('application/json');

    await client.call('chatHistories', { query: { q: 'tides', cursor: undefined } as never });
    expect(fetchMock.mock.calls[1]![0]).toBe('http://api.test/api/mongo/users/chat/histories?q=tides');
  });
});

describe('path parameters', () => {
  it('fill `:id`, encoded (dots too), and a missing one is refused before anything is sent', async () => {
    const { client, fetchMock } = setup(() => ok({ deleted: 1 }));
    await client.call('deleteTemplate', { params: { id: 'a/b' } });
    expect(fetchMock.mock.calls[0]![0]).toBe('http://api.test/api/template/delete/a%2Fb');
    await client.call('deleteTemplate', { params: { id: '..' } });
    expect(fetchMock.mock.calls[1]![0]).toBe('http://api.test/api/template/delete/%2E%2E');
    await expect(client.call('deleteTemplate', { params: { id: '' } })).rejects.toThrow(/id is missing/);
    expect(fetchMock.mock.calls).toHaveLength(2);
  });
});

describe('headers', () => {
  it('every kind of call sends the bearer token and lang-type', async () => {
    const { client, headersOf } = setup((url) =>
      url.endsWith('/api/ai/chat')
        ? new Response('data: {"type":"finish"}\n\n', { headers: { 'content-type': 'text/event-stream' } })
        : url.includes('/api/files/')
          ? new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'image/png' } })
          : ok({ text: 'hi' }),
    );
    await client.call('profile');
    await chatStream(client, { model: 'GPT_4O_MINI', text: 'hi' } as never);
    await transcribe(client, new Blob(['x'], { type: 'audio/webm' }), 'voice.webm');
    await fileBytes(client, 'f1');
    for (let n = 0; n < 4; n++) {
      expect(headersOf(n).get('authorization')).toBe('Bearer tok-1');
      expect(headersOf(n).get('lang-type')).toBe('fr');
    }
  });

  it('lang-type is the UI language when the API speaks it, else en; no token, no authorization', async () => {
    for (const [language, sent] of [
      ['es', 'es'],
      ['fr-CA', 'fr'],
      ['de', 'en'],
      ['', 'en'],
    ] as const) {
      const { client, headersOf } = setup(() => ok(null), { token: null, language: () => language });
      await client.call('publicConfig');
      expect(headersOf().get('lang-type')).toBe(sent);
      expect(headersOf().has('authorization')).toBe(false);
    }
  });

  it('a caller’s own headers go along, but cannot change lang-type', async () => {
    const { client, headersOf } = setup(() => ok(null));
    await client.request('changePassword', {
      body: { oldPassword: 'a', password: 'b' } as never,
      headers: { deviceType: 'WEB', 'lang-type': 'es' },
    });
    expect(headersOf().get('devicetype')).toBe('WEB');
    expect(headersOf().get('lang-type')).toBe('fr');
  });
});

describe('errors', () => {
  it('a localized error body becomes an ApiError with its status, code, message and issues', async () => {
    const { client, drop } = setup(() =>
      json({
        status: 400,
        body: {
          status: 400,
          code: 'VALIDATION_FAILED',
          message: 'Vérifiez les champs',
          issues: [{ path: 'text', message: 'obligatoire' }],
        },
      }),
    );
    const error = await client.call('translate', { body: { text: '', target: 'en' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Vérifiez les champs',
      issues: [{ path: 'text', message: 'obligatoire' }],
    });
    // A form error is not a session ending.
    expect(drop).not.toHaveBeenCalled();
  });

  it('the status in the body counts: a 200 carrying an error is an error', async () => {
    const { client } = setup(() =>
      json({ status: 200, body: { status: 402, code: 'OUT_OF_CREDITS', message: 'Plus de crédits' } }),
    );
    await expect(client.call('profile')).rejects.toMatchObject({ status: 402, code: 'OUT_OF_CREDITS' });
  });

  it('an answer that is not JSON (a proxy’s page) is an HTTP_ERROR with the status text', async () => {
    const { client } = setup(() => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(client.call('profile')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_ERROR',
      message: 'Bad Gateway',
    });
  });

  it('no network is status 0, NETWORK_ERROR; an abort stays an AbortError', async () => {
    const { client } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(client.call('profile')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });

    const aborted = setup(() => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    await expect(aborted.client.call('profile', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('409: the session ended elsewhere', () => {
  it('a body status 409 (even in an HTTP 200) drops the token and calls onLoggedOut once, then throws', async () => {
    const { client, drop, onLoggedOut, onUnauthorized, token } = setup(() => loggedOut(200));
    const error = await client.call('profile').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: 'SESSION_REPLACED', message: 'Vous avez été déconnecté' });
    expect(drop).toHaveBeenCalledTimes(1);
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
    expect(onLoggedOut).toHaveBeenCalledWith(error);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(token()).toBeNull();
    // The server's message (why, in the person's language) is what the person is told.
    expect(loggedOutReason(error as ApiError)).toBe('Vous avez été déconnecté');
  });

  it('an HTTP 409 whatever its body says; it gives no reason', async () => {
    const { client, onLoggedOut } = setup(() => new Response('conflict', { status: 409, statusText: 'Conflict' }));
    const error = await client.call('profile').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409 });
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
    expect(loggedOutReason(error as ApiError)).toBeNull();
  });

  it('many calls out when the session ends: it ends once', async () => {
    const { client, drop, onLoggedOut } = setup(() => loggedOut());
    const results = await Promise.allSettled([client.call('profile'), client.call('settings'), client.call('models')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(drop).toHaveBeenCalledTimes(1);
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('a late 409 for an older session does not end the new one; none without a token', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { client, drop, onLoggedOut, setToken, token } = setup(async () => {
      await held;
      return loggedOut();
    });
    const late = client.call('profile');
    setToken('tok-2'); // signed in again meanwhile
    release();
    await expect(late).rejects.toMatchObject({ status: 409 });
    expect(drop).not.toHaveBeenCalled();
    expect(onLoggedOut).not.toHaveBeenCalled();
    expect(token()).toBe('tok-2');

    const anonymous = setup(() => loggedOut(), { token: null });
    await expect(anonymous.client.call('publicConfig')).rejects.toMatchObject({ status: 409 });
    expect(anonymous.onLoggedOut).not.toHaveBeenCalled();
  });
});

describe('401: the token was refused', () => {
  it('drops it and calls onUnauthorized (not onLoggedOut); a 401 without a token changes nothing', async () => {
    const { client, drop, onLoggedOut, onUnauthorized } = setup(() =>
      json({ status: 401, body: { status: 401, code: 'UNAUTHENTICATED', message: 'Connectez-vous' } }),
    );
    await expect(client.call('profile')).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect(drop).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onLoggedOut).not.toHaveBeenCalled();

    const anonymous = setup(
      () => json({ status: 401, body: { status: 401, code: 'INVALID_CREDENTIALS', message: 'Non' } }),
      { token: null },
    );
    await expect(anonymous.client.call('login', { body: { email: 'a@b.c', password: 'x' } as never })).rejects.toThrow(
      'Non',
    );
    expect(anonymous.onUnauthorized).not.toHaveBeenCalled();
  });
});
