package v2

// MergedSettingsFor returns the --settings JSON that CreateSession writes for opts (after
// validation), or nil when it writes none.
func MergedSettingsFor(opts ...Option) ([]byte, error) {
	o := defaultConfig()
	for _, opt := range opts {
		opt.apply(&o)
	}
	if err := o.validate(); err != nil {
		return nil, err
	}
	if !o.hasSettingsHooks() {
		return nil, nil
	}
	return o.mergedSettings()
}
