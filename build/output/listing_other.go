//go:build !(linux || darwin)

package output

// listFolder lists the folder full (listFolderPortable).
func listFolder(full string, fn func(name string, dir bool, s Stamp)) error {
	return listFolderPortable(full, fn)
}
