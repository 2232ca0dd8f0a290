import type { AddressInfo } from 'node:net';
import type { ConnectLink, ErrorInfo, ResultEvent, VerifierOptions } from '@questkit/core';
import { answerFromClaim, faultHandlers } from './handlers.js';
import {
  type AdapterName,
  ALLOWED_CALLBACK_ORIGIN,
  CONNECT_MEMBER,
  CONNECT_ORIGIN,
  ROUTES,
  type ServerConfig,
} from './protocol.js';

/** What the server reports to its parent process. */
export interface AppHooks {
  onResult: (route: string) => (event: ResultEvent) => void;
  onFaultError: (error: unknown, info: ErrorInfo) => void;
  onLinked: (route: string) => (link: ConnectLink) => void;
}

/** A started server: its port, and how to stop it. */
export interface StartedApp {
  port: number;
  close(): Promise<void>;
}

type VerifyOptions = VerifierOptions<never>;

function verifyOptions(config: ServerConfig, hooks: AppHooks, route: string): VerifyOptions {
  // No onError here: the `verify` routes keep questkit's default, so its own log lines are among
  // what the secrets suite searches.
  return {
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    verify: answerFromClaim,
    onResult: hooks.onResult(route),
  };
}

function faultOptions(config: ServerConfig, hooks: AppHooks): VerifyOptions {
  return {
    apiKey: config.apiKey,
    timeoutMs: config.timeoutMs,
    maxBodyBytes: config.maxBodyBytes,
    quests: faultHandlers(config.lateByMs),
    onError: hooks.onFaultError,
    onResult: hooks.onResult(ROUTES.faults),
  };
}

function connectOptions(config: ServerConfig, hooks: AppHooks, route: string) {
  return {
    // These routes test what a link may redirect to: linking at once makes every accepted link
    // observable. The confirmation step is attacked in connect-attacks.test.ts.
    confirm: false,
    secret: config.connectSecret,
    publicUrl: CONNECT_ORIGIN,
    getIdentifier: () => CONNECT_MEMBER,
    onLinked: hooks.onLinked(route),
    ...(route === ROUTES.connectAllow ? { allowedCallbackOrigins: [ALLOWED_CALLBACK_ORIGIN] } : {}),
  };
}

function webhookOptions(config: ServerConfig) {
  return { secret: config.connectSecret, on: { JOINED_COMMUNITY: () => {} } };
}

async function startExpress(
  config: ServerConfig,
  hooks: AppHooks,
  major: 4 | 5,
): Promise<StartedApp> {
  const { connectEndpoint, verificationEndpoint, verificationErrors, webhookEndpoint } =
    await import('@questkit/express');
  // Both majors are driven through Express 5's types, as the adapter's own tests do.
  const express = (
    major === 5 ? (await import('express')).default : (await import('express4')).default
  ) as typeof import('express');
  const app = express();
  app.all(ROUTES.verify, verificationEndpoint(verifyOptions(config, hooks, ROUTES.verify)));
  const parsed = verificationEndpoint(verifyOptions(config, hooks, ROUTES.verifyParsed));
  app.use(ROUTES.verifyParsed, express.json({ limit: '100kb' }));
  app.all(ROUTES.verifyParsed, parsed);
  app.use(ROUTES.verifyParsed, verificationErrors(parsed));
  app.all(ROUTES.faults, verificationEndpoint(faultOptions(config, hooks)));
  app.all(ROUTES.connect, connectEndpoint(connectOptions(config, hooks, ROUTES.connect)));
  app.all(ROUTES.connectAllow, connectEndpoint(connectOptions(config, hooks, ROUTES.connectAllow)));
  app.post(ROUTES.webhooks, webhookEndpoint(webhookOptions(config)));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function startHono(config: ServerConfig, hooks: AppHooks): Promise<StartedApp> {
  const { connectEndpoint, verificationEndpoint, webhookEndpoint } = await import('@questkit/hono');
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const app = new Hono();
  app.all(ROUTES.verify, verificationEndpoint(verifyOptions(config, hooks, ROUTES.verify)));
  app.all(ROUTES.faults, verificationEndpoint(faultOptions(config, hooks)));
  const methods = ['GET', 'POST'];
  app.on(methods, ROUTES.connect, connectEndpoint(connectOptions(config, hooks, ROUTES.connect)));
  app.on(
    methods,
    ROUTES.connectAllow,
    connectEndpoint(connectOptions(config, hooks, ROUTES.connectAllow)),
  );
  app.post(ROUTES.webhooks, webhookEndpoint(webhookOptions(config)));
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({
        port: info.port,
        close: () =>
          new Promise((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}

async function startFastify(config: ServerConfig, hooks: AppHooks): Promise<StartedApp> {
  const { connectEndpoint, verificationEndpoint, webhookEndpoint } = await import(
    '@questkit/fastify'
  );
  const { default: Fastify } = await import('fastify');
  // Warnings and errors only: questkit's own log lines go through app.log, and the secrets suite
  // searches them; Fastify's per-request info lines would only add noise.
  const app = Fastify({ logger: { level: 'warn' } });
  await app.register(verificationEndpoint, {
    path: ROUTES.verify,
    ...verifyOptions(config, hooks, ROUTES.verify),
  });
  await app.register(verificationEndpoint, { path: ROUTES.faults, ...faultOptions(config, hooks) });
  await app.register(connectEndpoint, {
    path: ROUTES.connect,
    ...connectOptions(config, hooks, ROUTES.connect),
  });
  await app.register(connectEndpoint, {
    path: ROUTES.connectAllow,
    ...connectOptions(config, hooks, ROUTES.connectAllow),
  });
  await app.register(webhookEndpoint, { path: ROUTES.webhooks, ...webhookOptions(config) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: () => app.close(),
  };
}

/** Builds and starts the adapter's app on an ephemeral loopback port. */
export function startApp(
  adapter: AdapterName,
  config: ServerConfig,
  hooks: AppHooks,
): Promise<StartedApp> {
  switch (adapter) {
    case 'express':
      return startExpress(config, hooks, 5);
    case 'express4':
      return startExpress(config, hooks, 4);
    case 'hono':
      return startHono(config, hooks);
    case 'fastify':
      return startFastify(config, hooks);
  }
}
