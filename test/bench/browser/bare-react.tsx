/** The cold-start baseline: an empty React page whose first render is a message box, as the app's composer. */
import { createRoot } from 'react-dom/client';

function Page() {
  return (
    <main>
      <textarea aria-label="Message" rows={3} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
