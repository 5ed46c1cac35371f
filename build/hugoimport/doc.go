// Package hugoimport converts a Hugo site into a kakehashi site: the
// work of "kakehashi import hugo SRC DEST". It is not a stage of the
// pipeline (load → resolve → markdown → assemble → template → write): it
// writes an author's source files once, from another generator's.
//
// What it converts:
//
//   - The configuration (hugo.toml, config.toml, their YAML and JSON
//     forms, and config/_default/): baseURL, title, languages (their
//     titles, weights, content folders, params and menus),
//     defaultContentLanguage, copyright, params and menus become
//     kakehashi.toml; every other key is reported where it is set.
//   - The pages of every language, translated by folder (a contentDir
//     per language) or by file name (post.ko.md, index.ja.md; the default
//     language's files may have no suffix), become
//     content/<lang>/<path>.md, paired by path as kakehashi pairs
//     translations (a translationKey pairs them under its first page's
//     name). Front matter becomes kakehashi's (title, description,
//     summary, date, lastmod, tags, draft, slug, aliases, params); any
//     other field goes into params or the report, at its line.
//   - A section (a folder at the top of the content) whose pages have a
//     weight, or else a date, becomes a series: a series file in
//     content/series/ with its parts in that order, and the pages
//     content/<lang>/<section>/NN-name.md with their part number. Each
//     page's Hugo URL (from its section and slug, url, or the section's
//     permalink pattern) and its Hugo aliases are kept as aliases where
//     the kakehashi URL differs.
//   - A leaf bundle (a folder with index.md and its files) becomes a page
//     folder with the same files, so its relative links and images
//     still resolve; the other files of the content folders go to
//     static/ under the language's folder.
//   - static/ is copied to static/; the shortcode templates of the site
//     and its Hugo themes (layouts/shortcodes/, layouts/_shortcodes/) to
//     layouts/shortcodes/ and the default theme's shortcodes/; the i18n/
//     files (TOML, YAML or JSON, with one/other plural forms) become
//     kakehashi's i18n/<lang>.toml.
//
// Convert works the site out without writing anything; Site.Write
// writes it into a new or empty folder, all or nothing, through a
// temporary folder beside it, after building it in memory so that the
// report says what kakehashi build will say of it. The Report lists what
// was converted, approximated and not converted, each at its
// file:line:col in the Hugo site.
package hugoimport
