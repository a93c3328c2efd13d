export { API_PATH, createBrowserClient, createClient } from './client.js';
export type {
  BrowserClientOptions,
  ClientOptions,
  Method,
  Operation,
  PathsWith,
  PodiumClient,
  RequestOptions,
  Success,
} from './client.js';
export { PodiumError } from './errors.js';
export type { ErrorCode, Problem } from './errors.js';
export { verifyWebhook } from './webhook.js';
export type { HeadersLike, WebhookEvent, WebhookType } from './webhook.js';
export type { components, operations, paths, webhooks } from './schema.js';

import type { components } from './schema.js';
/** The document's schemas by name: `Schemas['PricingCards']`. */
export type Schemas = components['schemas'];
