import { hasIdentity, pageDigest, SeenIds } from './values';

/**
 * What a list has served: its records by identity, and by whole content the pages holding records
 * without one (a page whose records all have ids is told by them, so only those need hashing).
 */
export class Seen {
	private readonly ids = new SeenIds();

	private readonly pages = new Set<string>();

	/** Notes a page's content when it must be told by it: false for such a page served before. */
	notePage(items: unknown[]): boolean {
		if (items.every(hasIdentity)) return true;
		const digest = pageDigest(items);
		if (this.pages.has(digest)) return false;
		this.pages.add(digest);
		return true;
	}

	/** Notes a record: false only for one served before. */
	noteItem(item: unknown): boolean {
		return this.ids.addItem(item);
	}

	/** Whether a page adds nothing to what was served, without noting it. */
	addsNothing(items: unknown[]): boolean {
		return items.every(hasIdentity)
			? items.every((item) => this.ids.has(item))
			: this.pages.has(pageDigest(items));
	}
}
