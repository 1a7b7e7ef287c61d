#!/usr/bin/env python3
"""The layout kope keeps (ARCHITECTURE.md): folder = CMake target = include prefix, modules in one dependency order.

Fails on an include or a link that points up or sideways (which is also how a cycle would start), on a module
whose headers are not under kope/<module>/, and on a kope-runner that loads a library it must not (SQLite, libcurl,
OpenSSL) or includes CLI11. Usage: check_layout.py SOURCE_DIR [KOPE_RUNNER]
"""
import os
import re
import subprocess
import sys

# The dependency order: a module may include and link only modules of a lower rank.
RANK = {
    'base': 0,
    'model': 1, 'store': 1,
    'exec': 2, 'memory': 2, 'llm': 2,
    'device': 3, 'workspace': 3,
    'eval': 4,
    'doctor': 5, 'loop': 5,
    'agent': 6,
    'study': 7,
    'cli': 8, 'ui': 8,
    'app': 9,
}
FOLDER = {m: f'core/{m}' for m in RANK}
FOLDER.update(cli='cli', ui='ui', app='app')
UI_TARGETS = {'kope_ui', 'kope_ui_models', 'kope_graph', 'kope_graph_models', 'kope_agentview'}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]kope/([a-z_]+)/', re.M)
# The opening of a namespace with code in it (a forward declaration's `namespace kope { class X; }` is exempt).
NAMESPACE = re.compile(r'^namespace kope(?:::(\w+))?[\w:]*\s*\{\n(?!(?:class|struct) \w+;\n\})', re.M)
LINK = re.compile(r'target_link_libraries\(\s*([\w-]+)([^)]*)\)', re.S)


def module_of_target(t):
    if t in UI_TARGETS:
        return 'ui'
    if t.startswith('kope_') and t[5:] in RANK:
        return t[5:]
    return None


def main():
    src = sys.argv[1]
    problems = []
    for mod, folder in FOLDER.items():
        root = os.path.join(src, folder)
        if not os.path.isdir(root):
            problems.append(f'{folder}/: the module {mod} has no folder')
            continue
        for dp, _, files in os.walk(root):
            for f in files:
                path = os.path.join(dp, f)
                rel = os.path.relpath(path, src)
                # A module's interface is under kope/<module>/; a private header (*_internal.h) sits beside its sources.
                if f.endswith('.h') and not f.endswith('_internal.h') and mod not in ('ui', 'app'):
                    if not rel.startswith(f'{folder}/kope/{mod}/'):
                        problems.append(f'{rel}: a header of {mod} outside {folder}/kope/{mod}/')
                if f.endswith(('.h', '.cpp')):
                    text = open(path, encoding='utf-8', errors='replace').read()
                    for used in INCLUDE.findall(text):
                        if used not in RANK:
                            problems.append(f'{rel}: includes kope/{used}/, which is no module')
                        elif used != mod and RANK[used] >= RANK[mod]:
                            problems.append(f'{rel}: {mod} (rank {RANK[mod]}) includes kope/{used}/ (rank '
                                            f'{RANK[used]}): an include that points up or sideways')
                    # folder = namespace: a service module declares its code in kope::<module> (base and model
                    # are the shared vocabulary, kope:: itself; the window's targets use kope::ui, kope::graph...).
                    if mod not in ('base', 'model', 'ui', 'app'):
                        for ns in NAMESPACE.findall(text):
                            if ns != mod:
                                problems.append(f'{rel}: code of {mod} in namespace kope::{ns}' if ns else
                                                f'{rel}: code of {mod} in namespace kope, not kope::{mod}')
                    if mod == 'exec' and re.search(r'#\s*include\s*[<"]CLI/', text):
                        problems.append(f'{rel}: exec (kope-runner) includes CLI11')
                if f == 'CMakeLists.txt':
                    text = open(path).read()
                    for target, deps in LINK.findall(text):
                        tmod = module_of_target(target)
                        if tmod is None:
                            continue
                        for dep in re.findall(r'\bkope_\w+', deps):
                            dmod = module_of_target(dep)
                            if dmod and dmod != tmod and RANK[dmod] >= RANK[tmod]:
                                problems.append(f'{rel}: {target} links {dep}: a link that points up or sideways')
    if len(sys.argv) > 2:
        runner = sys.argv[2]
        out = subprocess.run(['readelf', '-d', runner], capture_output=True, text=True, check=True).stdout
        for lib in re.findall(r'\(NEEDED\).*\[(.*)\]', out):
            if re.match(r'lib(sqlite3|curl|crypto|ssl)\b', lib):
                problems.append(f'{runner}: kope-runner loads {lib}')
    for p in problems:
        print(p)
    print(f'check_layout: {len(problems)} problem(s) in {len(RANK)} modules')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
