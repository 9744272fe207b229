import { paginationOptions } from '../../descriptions/options';

/**
 * An option as the editor shows it in messages: `Options → Pagination Style`. Read from the
 * description itself, so that a renamed option cannot leave a message naming one that is gone.
 */
export function option(name: string): string {
	const property = paginationOptions.find((p) => p.name === name);
	if (!property) throw new Error(`No pagination option named ${name}`);
	return `Options → ${property.displayName}`;
}
