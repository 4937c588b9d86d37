import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  MODELS,
  modelInfo,
  type ModelAvailability,
  type ModelId,
  type ModelInfo,
  type Provider,
} from '@parley/contract';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { TranscriptionModel } from 'ai';
import type { Config } from '../../config.js';
import { DomainError } from '../../lib/errors.js';
import { createProviderFetch, createRequestHolds } from './provider-fetch.js';

/** A user's own key for one provider, decrypted for the length of a request. */
export type OwnKey = { provider: Provider; apiKey: string; baseUrl: string | null; modelName: string | null };

export type ResolvedModel = { model: LanguageModelV3; info: ModelInfo; keySource: 'own' | 'server'; label: string };

type Credentials = { apiKey: string | undefined; baseUrl: string | undefined; modelName?: string | undefined };
type Fetch = typeof globalThis.fetch;

function build(provider: Provider, providerModel: string, c: Credentials, fetch: Fetch): LanguageModelV3 {
  switch (provider) {
    case 'openai':
      // Chat Completions, which OpenAI and every OpenAI-compatible server speak.
      return createOpenAI({ apiKey: c.apiKey, ...(c.baseUrl ? { baseURL: c.baseUrl } : {}), fetch }).chat(
        providerModel,
      );
    case 'anthropic':
      return createAnthropic({ apiKey: c.apiKey, ...(c.baseUrl ? { baseURL: c.baseUrl } : {}), fetch })(providerModel);
    case 'google':
      return createGoogleGenerativeAI({ apiKey: c.apiKey, ...(c.baseUrl ? { baseURL: c.baseUrl } : {}), fetch })(
        providerModel,
      );
    case 'deepseek':
      return createDeepSeek({ apiKey: c.apiKey, ...(c.baseUrl ? { baseURL: c.baseUrl } : {}), fetch })(providerModel);
    case 'openaiCompatible':
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: c.baseUrl!,
        apiKey: c.apiKey,
        includeUsage: true,
        fetch,
      }).chatModel(providerModel);
  }
}

/**
 * No provider answer is read past this: the longest answer a model gives (about 128,000 tokens) is under 20 MB as a
 * server-sent event stream, and a base URL a person chose must not be able to stream without end into memory.
 */
export const MAX_CHAT_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * Resolves a catalogue id to a model and whose key pays. The user's own key wins and is used only with the user's
 * own base URL; the server's keys go only to the hosts the server's configuration names.
 */
export function createModelRegistry(ai: Config['ai']) {
  // Requests on the server's keys go to the hosts its configuration names, which may be on the local network (a
  // self-hosted model server); requests on a person's own key go to the base URL they gave, and, unless the
  // configuration allows private addresses, no connection is opened to one, whatever the host name resolves to then.
  const holds = createRequestHolds();
  const maxResponseBytes = MAX_CHAT_RESPONSE_BYTES;
  const serverFetch = createProviderFetch({ holds, maxResponseBytes });
  const ownFetch = createProviderFetch({ blockPrivate: !ai.allowPrivateBaseUrls, holds, maxResponseBytes });
  const server: Record<Provider, Credentials | null> = {
    openai: ai.openai.apiKey ? { apiKey: ai.openai.apiKey, baseUrl: ai.openai.baseUrl } : null,
    anthropic: ai.anthropic.apiKey ? { apiKey: ai.anthropic.apiKey, baseUrl: undefined } : null,
    google: ai.google.apiKey ? { apiKey: ai.google.apiKey, baseUrl: undefined } : null,
    deepseek: ai.deepseek.apiKey ? { apiKey: ai.deepseek.apiKey, baseUrl: undefined } : null,
    openaiCompatible: ai.openaiCompatible.baseUrl
      ? {
          apiKey: ai.openaiCompatible.apiKey,
          baseUrl: ai.openaiCompatible.baseUrl,
          modelName: ai.openaiCompatible.model,
        }
      : null,
  };

  // Models on the server's keys are built once: a provider object per request is work on every turn.
  const serverModels = new Map<string, LanguageModelV3>();
  const serverModel = (info: ModelInfo, creds: Credentials) => {
    let model = serverModels.get(info.id);
    if (!model) {
      const providerModel = info.provider === 'openaiCompatible' ? creds.modelName! : info.providerModel;
      model = build(info.provider, providerModel, creds, serverFetch);
      serverModels.set(info.id, model);
    }
    return model;
  };

  const label = (info: ModelInfo, own?: OwnKey) =>
    info.provider === 'openaiCompatible'
      ? (own?.modelName ?? server.openaiCompatible?.modelName ?? info.label)
      : info.label;

  return {
    /** Holds the requests made with `signal` until `until` settles (see createRequestHolds). */
    holdRequests: holds.hold,

    /** The name a model is shown under when the caller's own keys are not known (yet). */
    label: (id: ModelId) => label(modelInfo(id)),

    resolve(id: ModelId, ownKeys: OwnKey[]): ResolvedModel {
      const info = modelInfo(id);
      const own = ownKeys.find((k) => k.provider === info.provider);
      if (own) {
        const providerModel = info.provider === 'openaiCompatible' ? own.modelName! : info.providerModel;
        return {
          info,
          keySource: 'own',
          label: label(info, own),
          model: build(
            info.provider,
            providerModel,
            { apiKey: own.apiKey, baseUrl: own.baseUrl ?? undefined },
            ownFetch,
          ),
        };
      }
      const creds = server[info.provider];
      if (!creds) throw new DomainError('MODEL_UNAVAILABLE', { model: info.label });
      return { info, keySource: 'server', label: label(info), model: serverModel(info, creds) };
    },

    /** The whole catalogue, each model marked available or not for this user (never hidden). */
    availability(ownKeys: OwnKey[]): ModelAvailability[] {
      return MODELS.map((info) => {
        const own = ownKeys.find((k) => k.provider === info.provider);
        const keySource = own ? 'own' : server[info.provider] ? 'server' : null;
        return {
          id: info.id,
          label: label(info, own),
          provider: info.provider,
          tier: info.tier,
          contextWindow: info.contextWindow,
          capabilities: info.capabilities,
          available: keySource !== null,
          keySource,
        };
      });
    },

    /** Speech to text through OpenAI's transcription API (or a compatible server that offers it). */
    transcriber(ownKeys: OwnKey[]): { model: TranscriptionModel; keySource: 'own' | 'server' } | null {
      const own = ownKeys.find((k) => k.provider === 'openai');
      if (own)
        return {
          keySource: 'own',
          model: createOpenAI({
            apiKey: own.apiKey,
            ...(own.baseUrl ? { baseURL: own.baseUrl } : {}),
            fetch: ownFetch,
          }).transcription(ai.transcribeModel),
        };
      const creds = server.openai ?? server.openaiCompatible;
      if (!creds) return null;
      return {
        keySource: 'server',
        model: createOpenAI({
          apiKey: creds.apiKey ?? 'none',
          baseURL: creds.baseUrl,
          fetch: serverFetch,
        }).transcription(ai.transcribeModel),
      };
    },
  };
}

export type ModelRegistry = ReturnType<typeof createModelRegistry>;
