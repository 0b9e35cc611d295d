// Command mkimage writes a container image as a docker-archive tarball, which `ctr images import` loads,
// from files on this machine: no daemon and no registry. The image has one layer on an empty base.
//
//	mkimage -tag NAME:TAG -out FILE.tar [-entrypoint JSON] [-cmd JSON] [-env K=V]... [-user U] [-workdir D]
//	        [-port N]... PATH=SOURCE...
//
// PATH=SOURCE puts the file or folder SOURCE (a folder with everything under it, symbolic links kept as links)
// at PATH in the image. Entries are owned by root, readable by everyone, and carry a fixed time, so the same files
// give the same image.
package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// epoch is the time every entry carries: images built from the same files are the same, byte for byte.
var epoch = time.Unix(0, 0).UTC()

type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(s string) error { *r = append(*r, s); return nil }

func main() {
	tag := flag.String("tag", "", "the image's name:tag")
	out := flag.String("out", "", "the tarball to write")
	entrypoint := flag.String("entrypoint", "", "the entrypoint, a JSON array of strings")
	cmd := flag.String("cmd", "", "the default arguments, a JSON array of strings")
	user := flag.String("user", "", "the user (uid[:gid]) the process runs as")
	workdir := flag.String("workdir", "", "the working folder")
	var env, ports repeated
	flag.Var(&env, "env", "an environment variable, K=V (repeatable)")
	flag.Var(&ports, "port", "an exposed TCP port (repeatable)")
	flag.Parse()
	if err := run(*tag, *out, *entrypoint, *cmd, *user, *workdir, env, ports, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mkimage:", err)
		os.Exit(1)
	}
}

func run(tag, out, entrypoint, cmd, user, workdir string, env, ports, files []string) error {
	if tag == "" || out == "" {
		return fmt.Errorf("-tag and -out are required")
	}
	ref, err := name.NewTag(tag)
	if err != nil {
		return fmt.Errorf("-tag %q: %w", tag, err)
	}
	layerBytes, err := layer(files)
	if err != nil {
		return err
	}
	l, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerBytes)), nil
	})
	if err != nil {
		return err
	}
	img, err := mutate.AppendLayers(empty.Image, l)
	if err != nil {
		return err
	}
	config := v1.Config{User: user, WorkingDir: workdir, Env: env}
	if config.Entrypoint, err = argv("-entrypoint", entrypoint); err != nil {
		return err
	}
	if config.Cmd, err = argv("-cmd", cmd); err != nil {
		return err
	}
	if len(config.Env) == 0 {
		config.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	for _, p := range ports {
		if config.ExposedPorts == nil {
			config.ExposedPorts = map[string]struct{}{}
		}
		config.ExposedPorts[p+"/tcp"] = struct{}{}
	}
	file, err := img.ConfigFile()
	if err != nil {
		return err
	}
	file = file.DeepCopy()
	file.Architecture, file.OS, file.Created, file.Config = "amd64", "linux", v1.Time{Time: epoch}, config
	if img, err = mutate.ConfigFile(img, file); err != nil {
		return err
	}
	if err := tarball.WriteToFile(out, ref, img); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	fmt.Printf("mkimage: wrote %s (%s)\n", out, ref.Name())
	return nil
}

func argv(flagName, value string) ([]string, error) {
	if value == "" {
		return nil, nil
	}
	var args []string
	if err := json.Unmarshal([]byte(value), &args); err != nil {
		return nil, fmt.Errorf("%s %q is not a JSON array of strings: %w", flagName, value, err)
	}
	return args, nil
}

// layer is the tar of every PATH=SOURCE pair, parents before children, each path once.
func layer(files []string) ([]byte, error) {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	written := map[string]bool{}
	for _, pair := range files {
		dest, source, ok := strings.Cut(pair, "=")
		if !ok || dest == "" || source == "" {
			return nil, fmt.Errorf("%q: want PATH=SOURCE", pair)
		}
		dest = strings.TrimPrefix(path.Clean("/"+dest), "/")
		if err := parents(w, written, path.Dir(dest)); err != nil {
			return nil, err
		}
		if err := add(w, written, dest, source); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func parents(w *tar.Writer, written map[string]bool, dir string) error {
	if dir == "." || dir == "/" || written[dir] {
		return nil
	}
	if err := parents(w, written, path.Dir(dir)); err != nil {
		return err
	}
	written[dir] = true
	return w.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: epoch})
}

// add writes SOURCE at DEST: a file, a link, or a folder with what is under it (in name order).
func add(w *tar.Writer, written map[string]bool, dest, source string) error {
	info, err := os.Lstat(source)
	if err != nil {
		return err
	}
	if err := entry(w, written, dest, source, info); err != nil {
		return err
	}
	if !info.IsDir() {
		return nil
	}
	children, err := os.ReadDir(source)
	if err != nil {
		return err
	}
	sort.Slice(children, func(i, j int) bool { return children[i].Name() < children[j].Name() })
	for _, child := range children {
		if err := add(w, written, path.Join(dest, child.Name()), filepath.Join(source, child.Name())); err != nil {
			return err
		}
	}
	return nil
}

func entry(w *tar.Writer, written map[string]bool, dest, source string, info fs.FileInfo) error {
	if written[dest] {
		if info.IsDir() {
			return nil
		}
		return fmt.Errorf("%s is given twice", dest)
	}
	written[dest] = true
	link := ""
	if info.Mode()&fs.ModeSymlink != 0 {
		var err error
		if link, err = os.Readlink(source); err != nil {
			return err
		}
	}
	header, err := tar.FileInfoHeader(info, link)
	if err != nil {
		return err
	}
	header.Name, header.Uid, header.Gid, header.Uname, header.Gname = dest, 0, 0, "", ""
	header.ModTime, header.AccessTime, header.ChangeTime = epoch, time.Time{}, time.Time{}
	header.Format = tar.FormatPAX
	// Owned by root, so readable by all: containers run as other users (a folder made by mktemp is 0700).
	header.Mode |= 0o444
	if info.IsDir() {
		header.Name += "/"
		header.Mode |= 0o111
	}
	if err := w.WriteHeader(header); err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(source)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
