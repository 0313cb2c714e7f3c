import { useState } from 'react';

/** The create-vite React template's page: a heading, a counter and a line of text. */
export function App() {
  const [count, setCount] = useState(0);
  return (
    <main className="page">
      <h1>Vite + React</h1>
      <div className="card">
        <button type="button" onClick={() => setCount((n) => n + 1)}>
          count is {count}
        </button>
        <p>
          Edit <code>src/app.tsx</code> and save to test HMR
        </p>
      </div>
      <p className="read-the-docs">Click on the Vite and React logos to learn more</p>
    </main>
  );
}
