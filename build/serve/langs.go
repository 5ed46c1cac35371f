package serve

import (
	"context"
	"slices"

	"github.com/kakehashi-dev/kakehashi/build"
	"github.com/kakehashi-dev/kakehashi/build/config"
	"github.com/kakehashi-dev/kakehashi/i18n"
)

// withLangs sets the languages st serves "/" in: the build's (langs,
// from build.Result.Langs, which build/config worked out), else, while no
// build has succeeded, build/config's own answer from the configuration
// file and the content folders, so that "/" sends a reader to their
// language even before the site builds. The matcher is made anew only
// when the languages changed.
func (s *Server) withLangs(ctx context.Context, st *state, langs []string) {
	if len(langs) == 0 && len(st.langs) == 0 {
		langs = s.siteLangs(ctx)
	}
	if len(langs) > 0 && !slices.Equal(langs, st.langs) {
		st.langs, st.match = langs, i18n.NewMatcher(langs)
	}
}

// siteLangs is the site's languages as build/config works them out; nil
// when the configuration is in error or the site has none.
func (s *Server) siteLangs(ctx context.Context) []string {
	file := s.opts.Build.Layout.Config
	if file == "" {
		file = build.DefaultLayout().Config
	}
	cfg, diags := config.Load(ctx, s.in, file)
	if diags.Err() != nil {
		return nil
	}
	langs, ldiags := cfg.Langs(ctx, s.in, s.contentFolder())
	if ldiags.Err() != nil {
		return nil
	}
	return langs
}

// rootLang is the language "/" sends a reader to: the best of st's
// languages for the request's Accept-Language, else the site's first; ""
// when the site has none yet.
func rootLang(st *state, acceptLanguage string) string {
	if len(st.langs) == 0 {
		return ""
	}
	return st.match.Match(acceptLanguage, st.langs[0])
}
