const path = require('path');
const { task, src, dest } = require('gulp');

// tsc compiles the TypeScript; n8n also needs the icons and codex files beside the compiled nodes.
task('build:icons', () =>
	src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], { encoding: false }).pipe(
		dest((file) => path.resolve('dist', path.relative(__dirname, file.base))),
	),
);
