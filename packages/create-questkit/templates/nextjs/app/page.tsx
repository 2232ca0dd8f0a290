export default function Home() {
  return (
    <main>
      <h1>my-quest-app</h1>
      <p>POST /api/verify answers the platform's claims.</p>
    </main>
  );
}
