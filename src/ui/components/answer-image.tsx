import { useState } from 'react';

/**
 * An image an answer links to, shown only after a click: loading it unasked would tell whoever serves it that the
 * conversation is open. Inline (data:) images show in place; https ones open in a new tab, as the page's
 * Content-Security-Policy keeps remote images out of the page itself. Anything else stays a placeholder.
 */
export function AnswerImage({ src, alt }: { src: string; alt: string }) {
  const [isShown, setShown] = useState(false);
  const label = alt ? `image: ${alt}` : 'image';
  if (src.startsWith('data:')) {
    return isShown ? (
      <img className="answer-image" src={src} alt={alt} />
    ) : (
      <button type="button" className="secondary small image-reveal" onClick={() => setShown(true)}>
        Show {label}
      </button>
    );
  }
  if (src.startsWith('https:')) {
    const host = hostOf(src);
    return (
      <a className="image-link" href={src} target="_blank" rel="noopener noreferrer nofollow">
        Open {label} ({host})
      </a>
    );
  }
  return <span className="image-placeholder">[{label}]</span>;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'unknown address';
  }
}
