import { useEffect, useState } from 'react';

/** The current time, re-read every `ms` so ages and "x minutes ago" move between refetches. */
export function useNow(ms = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}
