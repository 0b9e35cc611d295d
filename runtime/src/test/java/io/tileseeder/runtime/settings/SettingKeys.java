package io.tileseeder.runtime.settings;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.doctree.DocTree;
import com.sun.source.doctree.EntityTree;
import com.sun.source.doctree.LinkTree;
import com.sun.source.doctree.LiteralTree;
import com.sun.source.doctree.TextTree;
import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.AssignmentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The settings that {@code SeederConfig} declares, read from its source: each key with its type, its
 * {@code @WithDefault} and its Javadoc. The settings page of the manual is written from these, so the mapping is
 * the only place a key, a default or a description is declared.
 */
record SettingKeys(List<Group> groups) {

    /** Settings under one prefix ({@code seeder.store.*}), or the top-level ones ({@code seeder.*}). */
    record Group(String prefix, String about, List<Setting> settings) {
    }

    /**
     * @param key          e.g. {@code seeder.store.io-threads}
     * @param type         the Java type as written ({@code OptionalInt}, {@code Duration}, {@code Mode}, ...)
     * @param defaultValue the {@code @WithDefault}, if any
     * @param about        the Javadoc, as Markdown on one line, less a closing "Default: …" sentence
     * @param defaultAbout that sentence, for a default worked out at run time (2 × cores)
     */
    record Setting(String key, String type, Optional<String> defaultValue, String about,
                   Optional<String> defaultAbout) {

        /** The environment variable that sets it ({@code SEEDER_STORE_IO_THREADS}). */
        String environmentVariable() {
            return key.toUpperCase(Locale.ROOT).replaceAll("[.-]", "_");
        }
    }

    /** Reads the mapping interface from its source file; its nested interfaces are the groups. */
    static SettingKeys read(Path source, String prefix) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, Locale.ROOT, StandardCharsets.UTF_8)) {
            JavacTask task = (JavacTask) javac.getTask(null, files, null, List.of("-proc:none"), null,
                    files.getJavaFileObjects(source));
            CompilationUnitTree unit = task.parse().iterator().next();
            DocTrees docs = DocTrees.instance(task);
            ClassTree root = (ClassTree) unit.getTypeDecls().getFirst();
            Map<String, ClassTree> nested = new LinkedHashMap<>();
            for (Tree member : root.getMembers()) {
                if (member instanceof ClassTree type && type.getKind() == Tree.Kind.INTERFACE) {
                    nested.put(type.getSimpleName().toString(), type);
                }
            }
            TreePath rootPath = TreePath.getPath(unit, root);
            List<Setting> top = new ArrayList<>();
            List<Group> groups = new ArrayList<>();
            for (MethodTree method : methods(root)) {
                String name = kebab(method.getName().toString());
                String type = method.getReturnType().toString();
                String about = markdown(docs.getDocCommentTree(new TreePath(rootPath, method)));
                ClassTree group = nested.get(type);
                if (group == null) {
                    top.add(setting(prefix + "." + name, method, about));
                } else {
                    TreePath groupPath = new TreePath(rootPath, group);
                    List<Setting> settings = new ArrayList<>();
                    for (MethodTree inner : methods(group)) {
                        settings.add(setting(prefix + "." + name + "." + kebab(inner.getName().toString()), inner,
                                markdown(docs.getDocCommentTree(new TreePath(groupPath, inner)))));
                    }
                    groups.add(new Group(prefix + "." + name, about, settings));
                }
            }
            groups.addFirst(new Group(prefix, "How this process runs.", top));
            return new SettingKeys(groups);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Setting> all() {
        return groups.stream().flatMap(group -> group.settings().stream()).toList();
    }

    private static List<MethodTree> methods(ClassTree type) {
        return type.getMembers().stream().filter(MethodTree.class::isInstance).map(MethodTree.class::cast)
                .filter(method -> !method.getModifiers().getFlags().contains(Modifier.STATIC)
                        && !method.getModifiers().getFlags().contains(Modifier.DEFAULT))
                .toList();
    }

    private static Setting setting(String key, MethodTree method, String about) {
        Optional<String> withDefault = Optional.empty();
        for (AnnotationTree annotation : method.getModifiers().getAnnotations()) {
            if (annotation.getAnnotationType().toString().equals("WithDefault")) {
                Tree value = annotation.getArguments().getFirst();
                if (value instanceof AssignmentTree assignment) {
                    value = assignment.getExpression();
                }
                com.sun.source.tree.LiteralTree literal = (com.sun.source.tree.LiteralTree) value;
                if (literal.getKind() != Tree.Kind.STRING_LITERAL) {
                    throw new IllegalStateException(key + ": @WithDefault takes a string literal");
                }
                withDefault = Optional.of((String) literal.getValue());
            }
        }
        int described = about.lastIndexOf("Default: ");
        Optional<String> defaultAbout = described < 0 ? Optional.empty()
                : Optional.of(about.substring(described + "Default: ".length()).replaceFirst("\\.$", ""));
        return new Setting(key, method.getReturnType().toString(), withDefault,
                described < 0 ? about : about.substring(0, described).strip(), defaultAbout);
    }

    /** {@code maxTilesPerJob} → {@code max-tiles-per-job}, as SmallRye Config names a mapping's keys. */
    static String kebab(String name) {
        return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** A Javadoc comment's main description as one line of Markdown. */
    private static String markdown(DocCommentTree doc) {
        if (doc == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        for (DocTree node : doc.getFullBody()) {
            switch (node) {
                case TextTree plain -> text.append(plain.getBody());
                case LiteralTree code -> text.append('`').append(code.getBody().getBody()).append('`');
                case LinkTree link -> text.append(link.getLabel().isEmpty()
                        ? "`" + link.getReference().getSignature().replaceFirst("^#", "") + "`"
                        : link.getLabel().toString());
                case EntityTree entity -> text.append(switch (entity.getName().toString()) {
                    case "lt" -> "<";
                    case "gt" -> ">";
                    case "amp" -> "&";
                    default -> "&" + entity.getName() + ";";
                });
                default -> text.append(node);
            }
        }
        return text.toString().replaceAll("\\s+", " ").strip();
    }
}
