import { createConnectFlow, createVerifier, fail, ok } from '@questkit/core';
import { sessionMember } from './session';

// Built on the first request, not at import: `next build` loads route modules, and the secrets
// are the deployment's, read from its environment at run time.
let verifier: ReturnType<typeof createVerifier> | undefined;
let flow: ReturnType<typeof createConnectFlow<Request>> | undefined;

const required = (name: string) => {
  const value = process.env[name];
  if (!value) throw new TypeError(`[@questkit/example-nextjs] set ${name} in the environment`);
  return value;
};

/** The verification endpoint of the app's quest. */
export function getVerifier() {
  verifier ??= createVerifier({
    apiKey: required('QUEST_API_KEY'),
    requires: ['email'],
    verify: ({ accounts }) =>
      accounts.email.endsWith('@example.com')
        ? ok('Thanks for joining!')
        : fail('Sign up with your work email first.'),
  });
  return verifier;
}

/** The community side of the identity-connect flow, with the app's signed session (session.ts). */
export function getConnectFlow() {
  if (flow) return flow;
  const sessionSecret = required('SESSION_SECRET');
  if (sessionSecret.length < 32) {
    throw new TypeError('[@questkit/example-nextjs] SESSION_SECRET needs 32 characters or more');
  }
  flow = createConnectFlow<Request>({
    secret: required('CONNECT_SECRET'),
    appName: 'Acme Next',
    // The member of a session this app signed: a cookie the visitor wrote names nobody.
    getIdentifier: (request) => sessionMember(request, sessionSecret),
    loginUrl: '/login',
    ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  });
  return flow;
}
