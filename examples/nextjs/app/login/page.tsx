export default function Login() {
  return (
    <main>
      <h1>Log in</h1>
      <p>Your login form goes here; after it, send the member to the returnTo path.</p>
    </main>
  );
}
