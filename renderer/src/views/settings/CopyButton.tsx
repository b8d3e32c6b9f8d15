// A button that copies a value and says so for a moment, to the eye and to screen readers.
import { useEffect, useState } from 'react';
import { copyText } from './copyText.ts';

export function CopyButton({ text, what }: { text: string; what: string }) {
  const [said, setSaid] = useState('');

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(''), 2500);
    return () => clearTimeout(timer);
  }, [said]);

  return (
    <>
      <button type="button" aria-label={`Copy ${what}`} onClick={async () => setSaid((await copyText(text)) ? 'Copied.' : 'Copying failed: select the text and copy it by hand.')}>
        Copy
      </button>
      <span className="muted copy-status" role="status">
        {said}
      </span>
    </>
  );
}
