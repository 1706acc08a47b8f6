// A bounded, newest-last memory of entries (the Activity view, user notices).

export class Ring<T> {
  readonly #items: T[] = [];
  readonly #cap: number;
  constructor(cap: number) {
    this.#cap = cap;
  }
  push(item: T): void {
    this.#items.push(item);
    if (this.#items.length > this.#cap) this.#items.shift();
  }
  list(): T[] {
    return [...this.#items];
  }
}
