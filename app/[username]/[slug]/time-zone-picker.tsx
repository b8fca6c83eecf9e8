'use client';

import Form from 'next/form';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';

type Props = {
  /** The zone the server rendered the times in. */
  value: string;
  names: string[];
  /** Query values to keep when the zone changes (date, month, slot). */
  keep: Record<string, string>;
  /** False when the URL names no zone yet: the browser's own zone then replaces the server's default. */
  chosen: boolean;
};

/**
 * The guest's time zone: a GET form that works without JavaScript (pick, then "Show times"); with JavaScript it
 * follows the browser's zone on the first visit and applies a new choice at once.
 */
export function TimeZonePicker({ value, names, keep, chosen }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const form = useRef<HTMLFormElement>(null);
  const [enhanced, setEnhanced] = useState(false);

  useEffect(() => {
    setEnhanced(true);
    if (chosen) return;
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!browserZone || browserZone === value) return;
    const params = new URLSearchParams(searchParams.toString());
    params.set('tz', browserZone);
    router.replace(`${pathname}?${params.toString()}`, { scroll: false });
  }, [chosen, value, pathname, router, searchParams]);

  return (
    <Form action={pathname} ref={form} className="tz-picker" scroll={false}>
      {Object.entries(keep).map(([name, keptValue]) => (
        <input key={name} type="hidden" name={name} value={keptValue} />
      ))}
      <label htmlFor="tz">Time zone</label>
      <select id="tz" name="tz" defaultValue={value} key={value} onChange={() => form.current?.requestSubmit()}>
        {names.map((name) => (
          <option key={name} value={name}>
            {name.replaceAll('_', ' ')}
          </option>
        ))}
      </select>
      <button type="submit" hidden={enhanced}>
        Show times
      </button>
    </Form>
  );
}
