import type { components } from './schema.js';

/** A stable code of the API's error body, every one listed in the document's Error schema. */
export type ErrorCode = components['schemas']['Error']['code'];
/** An input problem of a 400 or 422: its field path, code and words. */
export type Problem = components['schemas']['Problem'];

/**
 * An answer with a status of 400 or more: the API's standard error body. Branch on `code`,
 * which is stable; `message` is for people; `requestId` identifies the request to support.
 */
export class PodiumError extends Error {
  override readonly name = 'PodiumError';
  /** The HTTP status. */
  readonly statusCode: number;
  /** The stable code; undefined when the body was not the API's (a proxy's page). */
  readonly code: ErrorCode | undefined;
  /** The message's lines: one, or one per input problem. */
  readonly messages: string[];
  /** The input problems of a 400 or 422, each with its field path. */
  readonly problems: Problem[];
  /** The body's requestId, else the X-Request-Id header. */
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying a 429 or 503 (Retry-After), when given. */
  readonly retryAfter: number | undefined;
  /** The body as received. */
  readonly body: string;

  constructor(statusCode: number, body: string, headers: Headers) {
    const std = parseError(body);
    const messages = std?.message === undefined ? [] : Array.isArray(std.message) ? std.message : [std.message];
    const requestId = std?.requestId || headers.get('x-request-id') || undefined;
    const text = messages.length > 0 ? messages.join('; ') : `HTTP ${statusCode}`;
    super(`podium: ${statusCode} ${std?.code ?? ''}: ${text}${requestId ? ` (request ${requestId})` : ''}`);
    this.statusCode = statusCode;
    this.code = std?.code;
    this.messages = messages;
    this.problems = std?.problems ?? [];
    this.requestId = requestId;
    const retry = Number(headers.get('retry-after') ?? NaN);
    this.retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
    this.body = body;
  }
}

type ErrorBody = components['schemas']['Error'];

function parseError(body: string): ErrorBody | undefined {
  try {
    const v: unknown = JSON.parse(body);
    if (v !== null && typeof v === 'object' && typeof (v as { code?: unknown }).code === 'string') {
      return v as ErrorBody;
    }
  } catch {
    // not JSON: a proxy's page
  }
  return undefined;
}
