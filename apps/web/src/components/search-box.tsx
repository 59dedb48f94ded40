import { useEffect, useRef, useState } from 'react';
import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';

export interface SearchBoxProps {
  /** Current search text, usually from the URL. */
  value: string;
  /** Called with the new text once typing pauses for SEARCH_DEBOUNCE_MS. */
  onChange: (value: string) => void;
  /** Accessible name; the placeholder shows it, so no visible label takes toolbar room. */
  label?: string;
  /** The pause that ends typing; SEARCH_DEBOUNCE_MS unless a list's spec says otherwise (service areas: 1000 ms). */
  debounceMs?: number;
}

function SearchIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

export function SearchBox({ value, onChange, label = 'Search', debounceMs = SEARCH_DEBOUNCE_MS }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const lastEmitted = useRef(value);
  // The hook cancels a pending call on unmount, so a closed page never changes the URL.
  const emit = useDebouncedCallback((next: string) => {
    lastEmitted.current = next;
    onChange(next);
  }, debounceMs);

  // Follow outside changes (back button, reset) but not the echo of our own debounced value.
  useEffect(() => {
    if (value !== lastEmitted.current) {
      emit.cancel();
      lastEmitted.current = value;
      setText(value);
    }
  }, [value, emit]);

  return (
    <TextInput
      type="search"
      aria-label={label}
      placeholder={label}
      leftSection={<SearchIcon />}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        emit(event.currentTarget.value);
      }}
    />
  );
}
