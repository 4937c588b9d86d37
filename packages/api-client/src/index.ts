// The one HTTP client of Parley's web app and extension background (see client.ts); the multipart, streaming and file
// calls are in `@parley/api-client/streams`.
export {
  ApiError,
  createApiClient,
  loggedOutReason,
  type ApiAnswer,
  type ApiClient,
  type ApiClientOptions,
  type ApiResult,
  type CallArgs,
  type Envelope,
  type SendInit,
  type TokenStore,
} from './client.js';
