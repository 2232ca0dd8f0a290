export default function Login() {
  return (
    <main>
      <h1>Log in</h1>
      <p>
        Your login goes here: once the member proved who they are, set the cookie of
        sessionCookie(memberId, SESSION_SECRET) (lib/session.ts) and send them to returnTo.
      </p>
    </main>
  );
}
