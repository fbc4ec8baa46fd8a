/** A list of 32-bit integers in one Int32Array that doubles when full: compact, and cheap for the garbage collector. */
export class GrowableInts {
  /** The backing array; only the first `length` entries are the list. */
  array: Int32Array;
  length = 0;

  constructor(capacity = 16) {
    this.array = new Int32Array(Math.max(1, capacity));
  }

  private grow(minCapacity: number): void {
    const next = new Int32Array(Math.max(minCapacity, this.array.length * 2));
    next.set(this.array.subarray(0, this.length));
    this.array = next;
  }

  /** Appends a value. */
  push(value: number): void {
    if (this.length === this.array.length) this.grow(this.length + 1);
    this.array[this.length++] = value;
  }

  /** The value at `index` (0 beyond the end). */
  at(index: number): number {
    return index < this.length ? this.array[index]! : 0;
  }

  /** Sets the value at `index`, extending the list with zeros when `index` is beyond its end. */
  set(index: number, value: number): void {
    if (index >= this.array.length) this.grow(index + 1);
    if (index >= this.length) {
      this.array.fill(0, this.length, index);
      this.length = index + 1;
    }
    this.array[index] = value;
  }

  /** Sets every entry to `value`. */
  fill(value: number): void {
    this.array.fill(value, 0, this.length);
  }

  /** Drops the values whose `value >>> shift` is marked in `marks`, keeping the order; shrinks a mostly empty array. */
  dropSlots(marks: Uint8Array, shift: number): void {
    const array = this.array;
    let kept = 0;
    for (let i = 0, n = this.length; i < n; i++) {
      const value = array[i]!;
      if (marks[value >>> shift] !== 1) array[kept++] = value;
    }
    this.length = kept;
    if (array.length > 64 && kept < array.length / 4) this.array = array.slice(0, kept * 2);
  }

  /** Drops spare capacity (after a bulk build). */
  trim(): void {
    if (this.array.length > this.length) this.array = this.array.slice(0, Math.max(1, this.length));
  }
}
