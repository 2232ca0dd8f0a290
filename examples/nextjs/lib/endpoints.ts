import { createConnectFlow, createVerifier, fail, ok } from '@questkit/core';

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

// The app's session: a `session` cookie naming the member (a real app uses its auth library).
const memberOf = (request: Request) =>
  /(?:^|;\s*)session=([\w-]{1,64})/.exec(request.headers.get('cookie') ?? '')?.[1];

/** The community side of the identity-connect flow, with the app's session. */
export function getConnectFlow() {
  flow ??= createConnectFlow<Request>({
    secret: required('CONNECT_SECRET'),
    appName: 'Acme Next',
    getIdentifier: memberOf,
    loginUrl: '/login',
    ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  });
  return flow;
}
