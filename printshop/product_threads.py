"""How a build runs its products: every product's checks on a thread of their own, in the
manifest's order, and the products rendered a few at a time as their checks pass, each into
its own part of the build's output (builder.py plans the build and stores what it made)."""

from __future__ import annotations

from pathlib import Path

from printshop import deps
from printshop.cache import entry_extra
from printshop.errors import PrintshopError, Problems
from printshop.output import BuildOutput


def check_product(product, ctx) -> None:
    """A product's own checks, after those of the layout it is asked for (--layout)."""
    from printshop.products import layouts
    from printshop.products.book import cover

    layouts.check(ctx, product)
    cover.check_flag(ctx, product)
    product.check(ctx)


def entry_place(product):
    """Where a product's field problems are reported when nothing more exact is known."""
    return product.project.manifest_path or product.project.root


# Products built at once, each on a thread of its own sharing the renderer's workers: while
# one composes or joins its pages (the parent's work, the workers idle), another renders.
PRODUCTS_AT_ONCE = 2


def build_all(products: list, ctx, output: BuildOutput, recorders: dict, warnings: dict,
               out: Path) -> dict[str, dict[str, bytes]]:
    """Every product checked, then built, PRODUCTS_AT_ONCE at a time, taken in the
    manifest's order; the files each made (what the build cache stores for it). Each
    records what it reads into its own recorder and warns into its own list.

    Every input is checked before anything is written, but a product need not wait for
    the others' checks to render: the checks run on a thread of their own, in order, and a
    product is built once its own has passed (a kit's guide renders while its decks and
    tables are checked: 1.2 s of the parent's work, the workers idle, before). If any
    check fails no other product is started, and the checks' problems are raised together,
    as if nothing had been built. After a build failure no other product is started; the
    ones running finish, and the failures are raised together."""
    import contextvars
    import dataclasses
    import threading

    from printshop.products import markup

    outputs: dict[str, dict[str, bytes]] = {p.name: {} for p in products}
    failures: dict[str, BaseException] = {}
    checked: set[str] = set()
    failed: set[str] = set()
    check_problems = Problems()
    check_failure: list[BaseException] = []   # a check that failed unexpectedly
    todo = list(products)
    names = {p.name for p in products}
    # a product waits for the products it holds pages of (a kit's Event Deck): built
    # first, their renders are in the build's chunk cache when the kit asks for them
    waits_for = {p.name: set(p.includes()) & names - {p.name} for p in products}
    done: set[str] = set()
    lock = threading.Condition()
    context = contextvars.copy_context()

    def build(product) -> None:
        # what its last good build kept (the book: where its parts fell), as a guess
        product.last_build = entry_extra(out, product.name)
        from printshop.render.renderer import lost_words_fail_after

        product_ctx = dataclasses.replace(ctx, warnings=warnings[product.name],
                                          reported_scripts=set())
        with deps.recording(recorders[product.name]), lost_words_fail_after(), \
                markup.collecting(product_ctx.warn, entry_place(product)):
            product.build(product_ctx, ProductOutput(output, outputs[product.name]))

    needed = set().union(*waits_for.values())
    running = 0

    def check_all() -> None:
        for product in products:
            try:
                product_ctx = dataclasses.replace(ctx, warnings=warnings[product.name],
                                                  reported_scripts=set())
                with deps.recording(recorders[product.name]), \
                        markup.collecting(product_ctx.warn, entry_place(product)):
                    check_product(product, product_ctx)
            except PrintshopError as exc:
                with lock:
                    check_problems.extend(exc)
                    failed.add(product.name)
                    warnings[product.name].extend(w for w in exc.warnings
                                                  if w not in warnings[product.name])
            except BaseException as exc:
                with lock:
                    check_failure.append(exc)
            with lock:
                # a table that failed to load (reported with the project's problems)
                # stops the build as a product's own problems do
                check_problems.items.extend(p for p in ctx.project.problems.items
                                            if p not in check_problems.items)
                checked.add(product.name)
                lock.notify_all()

    def next_product():
        nonlocal running
        with lock:
            while todo and not failures and not check_problems and not check_failure \
                    and not failed:
                # what another waits for first, so that one does not start last
                ready = sorted((p for p in todo if p.name in checked
                                and waits_for[p.name] <= done),
                               key=lambda p: p.name not in needed)
                if not ready and not running and all(p.name in checked for p in todo):
                    ready = todo[:1]   # products holding each other: one must go first
                if ready:
                    todo.remove(ready[0])
                    running += 1
                    return ready[0]
                lock.wait()
            return None

    def run() -> None:
        nonlocal running
        while (product := next_product()) is not None:
            try:
                context.copy().run(build, product)
            except BaseException as exc:
                with lock:
                    failures[product.name] = exc
            with lock:
                running -= 1
                done.add(product.name)
                lock.notify_all()

    from printshop.render.pool import early

    if early.serial():   # all on this thread, one product after another: what a profiler
        context.copy().run(check_all)   # or a debugger sees (render/pool/serial.py)
        run()
    else:
        checking = threading.Thread(target=context.copy().run, args=(check_all,),
                                    daemon=True)
        checking.start()
        threads = [threading.Thread(target=run, daemon=True)
                   for _ in range(min(PRODUCTS_AT_ONCE, len(products)))]
        for thread in threads:
            thread.start()
        checking.join()
        for thread in threads:
            thread.join()
    if check_failure:
        raise check_failure[0]
    every_warning = [w for p in products for w in warnings[p.name]]
    check_problems.raise_if_any(every_warning)
    if failed:   # stopped by problems reported already
        raise PrintshopError([], every_warning)
    if failures:
        ordered = [failures[p.name] for p in products if p.name in failures]
        if all(isinstance(f, PrintshopError) for f in ordered):
            problems = Problems()
            for failure in ordered:
                if isinstance(failure, PrintshopError):   # (all are)
                    problems.extend(failure)
            problems.raise_if_any(every_warning)
        raise next(f for f in ordered if not isinstance(f, PrintshopError))
    # the files in the manifest's order, whichever product finished first
    output.files = {name: data for p in products for name, data in outputs[p.name].items()}
    return outputs


class ProductOutput:
    """A product's view of the build's output: what it adds goes to the build's, and is
    kept as that product's."""

    def __init__(self, shared: BuildOutput, own: dict[str, bytes]):
        self.shared, self.own = shared, own

    @property
    def files(self) -> dict[str, bytes]:
        return self.own

    def add(self, name: str, data: bytes | str) -> None:
        self.shared.add(name, data)
        self.own[name] = self.shared.files[name]

    def add_tree(self, name: str, files: dict[str, bytes]) -> None:
        self.shared.add_tree(name, files)
        for file_name in files:
            self.own[f"{name}/{file_name}"] = self.shared.files[f"{name}/{file_name}"]
