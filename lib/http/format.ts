// Timestamp formats of the spec's Conventions: database rows use a +00:00 offset, slots a Z suffix; both with
// milliseconds.

export function rowTimestamp(value: Date | string): string {
  return new Date(value).toISOString().replace(/Z$/, '+00:00');
}

export function slotTimestamp(value: Date): string {
  return value.toISOString();
}

export function nullableRowTimestamp(value: Date | string | null): string | null {
  return value === null ? null : rowTimestamp(value);
}
