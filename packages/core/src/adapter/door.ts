/**
 * The one door between a web framework and questkit's endpoints (verification, webhooks,
 * connect). An adapter turns its framework's request into a {@link DoorRequest}, hands it to an
 * endpoint's `handle`, and writes the {@link DoorAnswer} back: it decides nothing itself.
 */

/** A request body as the framework holds it when the endpoint runs. */
export type DoorBody =
  /** Nothing has read it yet: core reads it, within its size limit and deadline. */
  | {
      readonly kind: 'stream';
      readonly stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;
    }
  /**
   * Read whole by the framework when core asks for it: a body a middleware already read, which
   * the framework kept (Hono's `arrayBuffer()` after a `c.req.json()`). Core calls `read` once
   * the checks made on the headers pass, within its deadline, and still checks the size of what
   * it gets; a `read` that rejects is an unreadable body.
   */
  | {
      readonly kind: 'whole';
      /** Reads the whole body, once, when core asks for it. */
      read(): Promise<Uint8Array | ArrayBuffer>;
    }
  /** Read whole by the framework, as raw bytes or text (`''` when there is no body). */
  | { readonly kind: 'bytes'; readonly value: Uint8Array | string }
  /** Already parsed by the framework's own parser (JSON, or a form as a plain object). */
  | { readonly kind: 'parsed'; readonly value: unknown }
  /**
   * The framework failed to read it: over its size limit, or unreadable. `stream` is the request
   * itself, for core to drain whatever of the body is still on the wire before it answers (a
   * parser that refused the body on its headers, such as body-parser on a charset other than
   * UTF-8, read none of it).
   */
  | {
      readonly kind: 'failed';
      readonly reason: 'too_large' | 'unreadable';
      readonly stream?: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;
    };

/** A request, as every endpoint sees it whatever the framework. */
export interface DoorRequest {
  /** The HTTP method, as received. */
  readonly method: string;
  /**
   * The URL the client used: absolute when the adapter knows the public origin (its `publicUrl`
   * option or its framework's trust-proxy setting), else the path and query as received.
   */
  readonly url: string;
  /** A header by its lower-case name; `undefined` when absent. */
  header(name: string): string | undefined;
  /** The body; endpoints read it only after the checks made on the headers alone pass. */
  readonly body: DoorBody;
  /** When the request arrived (`Date.now()`); deadlines count from it. Defaults to now. */
  readonly receivedAt?: number;
}

/** An answer, decided by core; the adapter writes it as it stands. */
export interface DoorAnswer {
  readonly status: number;
  /** Response headers by lower-case name, `content-type` included. */
  readonly headers: Readonly<Record<string, string>>;
  /** `Set-Cookie` values, each written as a header of its own. */
  readonly cookies: readonly string[];
  /** The body text; `''` for none. */
  readonly body: string;
  /**
   * Part of the request body is still unread (too large, too slow, refused on its headers, and
   * more of it than core drains before answering): the adapter closes the connection after
   * answering, so the rest cannot reach the next request.
   */
  readonly close: boolean;
}

/**
 * An endpoint behind the door. `ctx` is the framework's own request or context, handed to the
 * app's callbacks (for example the connect flow's `getIdentifier`); core never looks inside it.
 */
export interface DoorEndpoint<Ctx = unknown> {
  /** Answers one request. Never rejects: every failure is an answer. */
  handle(request: DoorRequest, ctx: Ctx): Promise<DoorAnswer>;
}
