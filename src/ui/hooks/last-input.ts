/** How the person last acted on the page: 'keyboard', or the kind of pointer that pressed ('mouse', 'pen', 'touch'). */
let lastKind = 'mouse';
let isListening = false;

/** Starts following the person's input (once per page); capture phase, so it sees what handlers stop too. */
function listen(): void {
  if (isListening || typeof document === 'undefined') return;
  isListening = true;
  document.addEventListener('pointerdown', (e) => (lastKind = e.pointerType || 'mouse'), true);
  document.addEventListener('keydown', () => (lastKind = 'keyboard'), true);
}

/** Starts following the person's input, so that wasTap() can tell later; call it before the input to tell apart. */
export function followInput(): void {
  listen();
}

/** Whether the person's last press was a tap: moving focus then would raise a phone's keyboard over the page. */
export function wasTap(): boolean {
  listen();
  return lastKind === 'touch';
}
