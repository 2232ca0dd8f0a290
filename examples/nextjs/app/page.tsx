export default function Home() {
  return (
    <main>
      <h1>Acme Next</h1>
      <p>POST /api/verify answers the platform's claims; /api/connect links accounts.</p>
    </main>
  );
}
